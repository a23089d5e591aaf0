/**
 * A record as the gateway sent it: every field it holds, in its order, unknown ones too, each read
 * and checked where it is used (common.ts). The client, lists, output and money decisions pass it on.
 */
export type GwRecord = Record<string, unknown>

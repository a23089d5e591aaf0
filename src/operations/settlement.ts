import type {Deps, GwRecord} from './deps.js'

/** The days of a settlement look-up, as `YYYY-MM-DD`, both included. */
export interface SettlementDays {
  from: string
  to: string
}

/** `2026-11-06` as the gateway's settlement look-up takes it, `2026/11/06` (gateway-beyond.md §8). */
export function settlementDate(day: string): string {
  return day.replaceAll('-', '/')
}

/**
 * The purchases whose settlement date falls in the days, both included (approved, captured in
 * part, voided and declined; never an authorization not captured), newest first, as the gateway
 * lists them in one answer (`GET /v1.0/purchases/settlement`).
 */
export async function settlement({from, to}: SettlementDays, {client}: Pick<Deps, 'client'>): Promise<GwRecord[]> {
  return (await client.purchases.settlement({from: settlementDate(from), to: settlementDate(to)})) ?? []
}

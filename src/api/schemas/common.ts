import * as z from 'zod'
import {lazily} from './lazy.js'

/**
 * The gateway's answers vary (gateway-notes.md): fields come and go, types drift between
 * versions. Record schemas are loose objects so unknown fields pass through to --json untouched,
 * and every field the contract names is optional and nullable unless gw cannot work without it.
 */
export const maybe = <T extends z.ZodType>(schema: T) => schema.nullish()

export const looseString = maybe(z.string())
export const looseBoolean = maybe(z.boolean())
/** Built when first used, as the envelope and the lists are: a purchase, the record a get reads most, has no integer field. */
export const looseInt = lazily(() => maybe(z.number().int()))
/** Older responses send `authorization` as an integer, newer ones as a string. */
export const stringOrNumber = maybe(z.union([z.string(), z.number()]))
/** A record's card number: a string, masked or whole, or a JSON number from some gateways (redact masks either). */
export const recordCardNumber = stringOrNumber

/**
 * A field the live gateway sends beyond the contract (gateway-notes.md): named, so gw knows it
 * (--fields, a fixtures file's references), but any value passes, since nothing in gw relies on it.
 */
export const beyondContract = z.unknown().optional()

/** What every answer is read as; gw reads it by hand (envelopeOf, responses.ts), so this is built only where it is asked for. */
export const Envelope = lazily(() =>
  z.looseObject({
    successful: z.boolean(),
    response: z.unknown().optional(),
    errors: z.array(z.string()).optional().default([]),
    test: z.boolean().optional(),
  }),
)
export type Envelope = z.infer<typeof Envelope>

/**
 * A page of a list: an array of records (or null), each handed on as the gateway sent it. Only the
 * shape is checked, not each record against its schema: a list's records are printed as they
 * came, and whatever reads a field of one (filters, tables, the report) checks that field. The
 * whole check cost ~5 µs a record in a run of gw (0.1 s of CPU over 20,000 records). Built when
 * first used: the endpoint table (endpoints.ts) holds one per list, and a command reads one list at most.
 */
export const listOf = <Item>() =>
  lazily(() => z.custom<Item[] | null | undefined>((value) => value === null || value === undefined || (Array.isArray(value) && value.every(isRecord)), {message: 'expected a list of records'}))

const isRecord = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)

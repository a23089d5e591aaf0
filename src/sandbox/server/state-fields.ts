import * as z from 'zod'

/** The fields of records as the state file holds them, checked on load (state-schema.ts). */
export const text = z.string()
export const nullableText = z.string().nullable()
export const integer = z.number().int()
/** A calendar date as the sandbox writes them, `2026-11-23`: a file with another is refused on load, not answered with 500s later. */
export const date = z.string().refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'must be a date, YYYY-MM-DD')
/** A date-time with its offset, `2026-11-23T10:00:00+11:00`. */
export const dateTime = z.string().refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)), 'must be a date-time with its offset')

import * as z from 'zod'
import {instantOf, isCalendarDate} from '../../lib/days.js'

/** The fields of records as the state file holds them, checked on load (state-schema.ts). */
export const text = z.string()
export const nullableText = z.string().nullable()
export const integer = z.number().int()
/** A calendar date as the sandbox writes them, `2026-11-23`: a file with another is refused on load, not answered with 500s later. */
export const date = z.string().refine(isCalendarDate, 'must be a date, YYYY-MM-DD')
/** A date-time with its offset, `2026-11-23T10:00:00+11:00`. */
export const dateTime = z.string().refine((value) => instantOf(value) !== undefined, 'must be a date-time with its offset')

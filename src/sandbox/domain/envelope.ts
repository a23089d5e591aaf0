import type {Mode} from './mode.js'

/** The body of every answer, and the `response` of charge events (contract §2.1, §6). */
export const envelope = (mode: Mode, successful: boolean, response: unknown, errors: string[]) => ({
  successful,
  response,
  errors,
  test: mode === 'sandbox',
})

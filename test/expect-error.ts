import {expect} from 'vitest'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ErrorClass<E extends Error> = abstract new (...args: any[]) => E

/**
 * The error `fn` throws, checked to be a `kind` whose message holds `message` (a text it contains,
 * or a pattern it matches). vitest's toThrow('msg') passes when the code throws undefined
 * (vitest#7260), and says nothing of the error's class.
 */
export function expectThrow<E extends Error>(fn: () => unknown, kind: ErrorClass<E>, message: string | RegExp): E {
  try {
    fn()
  } catch (error) {
    return checked(error, kind, message)
  }
  return expect.fail(`expected a ${kind.name} to be thrown, and nothing was`)
}

/** The error `promise` rejects with, checked as expectThrow checks it. */
export async function expectReject<E extends Error>(promise: Promise<unknown>, kind: ErrorClass<E>, message: string | RegExp): Promise<E> {
  try {
    await promise
  } catch (error) {
    return checked(error, kind, message)
  }
  return expect.fail(`expected a ${kind.name} to be rejected with, and the promise resolved`)
}

function checked<E extends Error>(error: unknown, kind: ErrorClass<E>, message: string | RegExp): E {
  expect(error).toBeInstanceOf(kind)
  const text = (error as E).message
  if (typeof message === 'string') expect(text).toContain(message)
  else expect(text).toMatch(message)
  return error as E
}

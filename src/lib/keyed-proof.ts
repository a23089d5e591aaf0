import {createHmac, randomBytes, timingSafeEqual} from 'node:crypto'

/**
 * Proof that whoever wrote a text holds a key, without the key ever being sent: an HMAC-SHA256 of
 * the text. The one who asks puts a challenge of its own in the text, so an old proof proves nothing.
 */
export const newChallenge = (): string => randomBytes(16).toString('base64url')

export const keyedProof = (key: string, text: string): string => createHmac('sha256', key).update(text).digest('base64url')

/** Whether `proof` is the key's proof of the text (compared in constant time). */
export function proves(key: string, text: string, proof: string): boolean {
  const expected = Buffer.from(keyedProof(key, text))
  const given = Buffer.from(proof)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

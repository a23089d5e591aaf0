/**
 * Digits as a value of their own (a CVV), not among the other digits and letters of an id, a
 * reference or a time that happen to hold them (`curl-673917e9`, `16:12:03.987Z`).
 */
export const ownValue = (digits: string): RegExp => new RegExp(`(?<![\\w.-])${digits}(?![\\w.-])`)

/**
 * The one place card data is made safe to show: card numbers keep the first six and last four
 * digits (as the gateway masks them), CVVs and secrets disappear entirely.
 */
export function maskCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '')
  if (digits.length < 12) return 'X'.repeat(digits.length)
  return digits.slice(0, 6) + 'X'.repeat(digits.length - 10) + digits.slice(-4)
}

const SECRET_KEYS = /^(cvv|cvc|cvv2|password|authentication_password|token_secret|api_token)$/i
const CARD_NUMBER_KEYS = /^(card_number|number)$/i

/** A deep copy of a request or response body fit for logs: no CVV, no secret, no full card number. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact)
  if (value === null || typeof value !== 'object') return value
  const copy: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    if (SECRET_KEYS.test(key)) copy[key] = '[redacted]'
    else if (CARD_NUMBER_KEYS.test(key) && typeof field === 'string') copy[key] = maskCardNumber(field)
    else copy[key] = redact(field)
  }
  return copy
}

/** Redacts a body that may not be JSON (an HTML error page, say): long digit runs are masked. */
export function redactText(text: string): string {
  try {
    return JSON.stringify(redact(JSON.parse(text)))
  } catch {
    return text.replace(/\b\d{12,19}\b/g, maskCardNumber)
  }
}

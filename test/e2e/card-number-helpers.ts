/**
 * The whole card numbers a text holds by design.md §3's rule, written apart from src/safety/ so
 * that a test checks the output against the rule, not against the code that made it: in each run
 * of digits (any decimal digit, full-width and other scripts too) with a separator between two
 * or none (white space but line breaks, any dash, dots, underscores, slashes, characters that show
 * as nothing), every span of whole groups with 13 to 19 digits that passes the Luhn check. The text is
 * read as written and with JSON's escapes read (`\t`, `\/`, `\uFF14`), as a file of JSON lines keeps
 * them. UUIDs (request ids the gateway makes at random) are left out: their digit groups can line up
 * as one by chance, which would make a test fail once in thousands of runs.
 */
export function wholeCardNumbersIn(text: string): string[] {
  return [...new Set([...numbersIn(text), ...numbersIn(jsonUnescaped(text))])]
}

const SEPARATOR = /[^\S\n\r\u2028\u2029\f\v]|\p{Pd}|[\u2212._/\u00b7\u2024\u3002\uff0e\uff61\u2044\u2215\uff0f\uff3f\u00ad\u200b-\u200d\u2060\ufeff]/u
const RUN = new RegExp(`\\p{Nd}(?:(?:${SEPARATOR.source})?\\p{Nd})*`, 'gu')

function numbersIn(text: string): string[] {
  const found: string[] = []
  const withoutUuids = text.replace(/\b[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}\b/gi, 'uuid')
  for (const [run] of withoutUuids.matchAll(RUN)) {
    const groups = [...run.matchAll(/\p{Nd}+/gu)].map(([group]) => [...group].map(digitOf).join(''))
    for (let first = 0; first < groups.length; first++) {
      let digits = ''
      for (let last = first; last < groups.length && digits.length <= 19; last++) {
        digits += groups[last]
        if (digits.length >= 13 && digits.length <= 19 && passesLuhn(digits)) found.push(groups.slice(first, last + 1).join(' '))
      }
    }
  }
  return found
}

/** A decimal digit's value, in any script: how far it is from the first of the digits that run on before it (each script's ten lie together, 0 first). */
function digitOf(char: string): string {
  let code = char.codePointAt(0)!
  let steps = 0
  while (/\p{Nd}/u.test(String.fromCodePoint(code - 1))) {
    code--
    steps++
  }
  return String(steps % 10)
}

/** The text with JSON's escapes read, where they stand (a line of a JSON file keeps a tab as `\t`). */
function jsonUnescaped(text: string): string {
  return text.replace(/\\(u[\da-fA-F]{4}|["\\/bfnrt])/g, (escape) => JSON.parse(`"${escape}"`) as string)
}

function passesLuhn(digits: string): boolean {
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

/** A card number no other test uses: 16 digits, 4 first (a Visa's shape), passing the Luhn check. */
export function freshCardNumber(): string {
  let digits = '4'
  while (digits.length < 15) digits += String(Math.floor(Math.random() * 10))
  for (let check = 0; check < 10; check++) if (passesLuhn(digits + check)) return digits + check
  throw new Error('no check digit')
}

/** The same digits in full-width (U+FF10 to U+FF19), as a Japanese keyboard types them. */
export const fullWidth = (digits: string) => digits.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)))

/** The digits in groups of four with `separator` between them. */
export const grouped = (digits: string, separator: string) => digits.match(/.{1,4}/g)!.join(separator)

/** Keys that hold a CVV in a JSON text, by gw's rule (any key holding cvv or cvc, but the gateway's cvv_match): none may be kept or shown. */
export function cvvKeysIn(text: string): string[] {
  return [...text.matchAll(/"([^"\\]*(?:cvv|cvc)[^"\\]*)"\s*:/gi)].map(([, key]) => key!).filter((key) => key.toLowerCase() !== 'cvv_match')
}

/**
 * The whole card numbers a text holds by design.md §3's rule, written apart from src/safety/redact.ts so
 * that a test checks the output against the rule, not against the code that made it: in each run of
 * digits (single spaces or dashes between them), every span of whole groups with 13 to 19 digits
 * that passes the Luhn check. UUIDs (request ids the gateway makes at random) are left out: their
 * digit groups can line up as one by chance, which would make a test fail once in thousands of runs.
 */
export function wholeCardNumbersIn(text: string): string[] {
  const found: string[] = []
  const withoutUuids = text.replace(/\b[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}\b/gi, 'uuid')
  for (const [run] of withoutUuids.matchAll(/\d+(?:[ -]\d+)*/g)) {
    const groups = run.split(/[ -]/)
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

function passesLuhn(digits: string): boolean {
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

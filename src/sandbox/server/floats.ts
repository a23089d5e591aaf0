/**
 * Fields the gateway writes as floats, a whole amount with its `.0` (`"decimal_amount":100.0`,
 * gateway-notes.md), which JSON.stringify writes as `100`. A client that tells a float from an
 * integer by its text (Ruby, Python) reads the same type from either gateway.
 */
const FLOAT_FIELDS = ['decimal_amount']

// Only a key can be followed by `":` in JSON: inside a string the quote would be escaped.
const WHOLE_VALUE = new RegExp(`"(${FLOAT_FIELDS.join('|')})":(-?\\d+)(?=[,}])`, 'g')

/** JSON text with each float field's whole value written with `.0`. */
export const withFloats = (json: string): string => json.replace(WHOLE_VALUE, '"$1":$2.0')

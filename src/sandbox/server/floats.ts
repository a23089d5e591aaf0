/**
 * Fields the gateway writes as floats, a whole amount with its `.0` (`"decimal_amount":100.0`,
 * gateway-notes.md; a direct debit's `"amount":42.0`, gateway-beyond.md §10), which JSON.stringify
 * writes as `100`. A client that tells a float from an integer by its text (Ruby, Python: the
 * vendor's Ruby library refuses a direct debit whose amount is not a Float) reads the same type
 * from either gateway. Each is a float in the answers under its paths (every path when none are
 * named): a purchase's `amount` is an integer of cents.
 */
const FLOAT_FIELDS: readonly {field: string; under?: string}[] = [{field: 'decimal_amount'}, {field: 'amount', under: '/v1.0/direct_debits'}]

// Only a key can be followed by `":` in JSON: inside a string the quote would be escaped.
const wholeValues = (fields: string[]) => new RegExp(`"(${fields.join('|')})":(-?\\d+)(?=[,}])`, 'g')
const EVERYWHERE = wholeValues(FLOAT_FIELDS.filter(({under}) => under === undefined).map(({field}) => field))

/** The pattern of the float fields of the answers to `pathname`. */
function floatsAt(pathname: string): RegExp {
  const here = FLOAT_FIELDS.filter(({under}) => under !== undefined && (pathname === under || pathname.startsWith(`${under}/`) || pathname.startsWith(`${under}.`)))
  return here.length === 0 ? EVERYWHERE : wholeValues([...FLOAT_FIELDS.filter(({under}) => under === undefined), ...here].map(({field}) => field))
}

/** JSON text with each float field's whole value written with `.0`: those of every answer, and those of the answers to `pathname`. */
export const withFloats = (json: string, pathname = ''): string => json.replace(floatsAt(pathname), '"$1":$2.0')

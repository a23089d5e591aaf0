// The character codes of JSON's punctuation, for the readers of a list's answer as text (list-splitter.ts, record-facts.ts).

export const QUOTE = 34
export const BACKSLASH = 92
export const OPEN_BRACE = 123
export const CLOSE_BRACE = 125
export const OPEN_BRACKET = 91
export const CLOSE_BRACKET = 93
export const COMMA = 44
export const COLON = 58

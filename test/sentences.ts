/**
 * The sentences of prose a reader takes in, for the 40-word rule (guide.md, design.md §3): what a
 * code block, inline code, a URL or a link's address holds is not prose. A code span, URL or link
 * counts as one word; a heading, list item and table cell is a sentence of its own at least. A
 * sentence ends at . ! or ? before what starts one: a capital, a digit, a code span, a flag or gw.
 */
export interface Sentence {
  /** 1-based line of the text it starts in. */
  line: number
  text: string
  words: number
}

/** Words that end in a full stop without ending a sentence. */
const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|etc|vs|cf|approx|no|Mr|Ms|Dr|St)\.$/i
const CODE = 'CODE'

/**
 * Markdown (or a help text, which is plain text in the same shape) as its sentences. `lines`: each
 * line is a paragraph of its own, as a command's description prints it. `columns`: a help topic's
 * indented rows (`  NAME  what it is`) are a sentence each, their first column left out.
 */
export function sentencesOf(text: string, {columns = false, lines = false} = {}): Sentence[] {
  let shaped = columns ? text.replace(/^ +\S(?:.*?\S)? {2,}(?=\S)/gm, '- ').replace(/^ {2}(?=\S)/gm, '- ') : text
  if (lines) shaped = shaped.replace(/^(?![-*+] |\d+[.)] )(?=\S)/gm, '- ')
  const units = unitsOf(shaped)
  return units.flatMap(({line, text: unit}) => splitSentences(flatten(unit)).map((sentence) => ({line, text: sentence, words: wordCount(sentence)})))
}

/** Paragraphs, list items, headings and table cells, with the line each starts on; code left out. */
function unitsOf(text: string): {line: number; text: string}[] {
  const lines = text.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, '')).split('\n')
  const units: {line: number; text: string}[] = []
  let current: {line: number; text: string} | undefined
  const close = () => {
    if (current && current.text.trim()) units.push(current)
    current = undefined
  }
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!
    const fence = /^\s*(```|~~~)/.exec(raw)
    if (fence) {
      close()
      while (++i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) {
        // the block's lines are code
      }
      continue
    }
    const trimmed = raw.trim()
    if (trimmed === '') {
      close()
      continue
    }
    if (/^#{1,6}\s/.test(trimmed)) {
      close()
      units.push({line: i + 1, text: trimmed.replace(/^#+\s*/, '')})
      continue
    }
    if (trimmed.startsWith('|')) {
      close()
      if (/^\|[\s:|-]+\|$/.test(trimmed)) continue
      for (const cell of trimmed.replace(/^\||\|$/g, '').split(/(?<!\\)\|/)) if (cell.trim()) units.push({line: i + 1, text: cell.trim()})
      continue
    }
    // An indented line of a help text that reads as a command or a column (two spaces between) is not prose.
    if (/^\s{4,}\S/.test(raw) && !current) {
      units.push({line: i + 1, text: ''})
      continue
    }
    const item = /^([-*+]|\d+[.)])\s+(.*)$/.exec(trimmed)
    if (item) {
      close()
      current = {line: i + 1, text: item[2]!}
      continue
    }
    if (current) current.text += ` ${trimmed}`
    else current = {line: i + 1, text: trimmed}
  }
  close()
  return units.filter((unit) => unit.text.trim() !== '')
}

/** The unit's prose: code spans, URLs and links' addresses made one word each. */
function flatten(text: string): string {
  return text
    .replace(/`+[^`]*`+/g, CODE)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<https?:[^>]*>|https?:\/\/\S+/g, 'URL')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

function splitSentences(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  // An end of a sentence: . ! or ? (and any closing quote or bracket), a space, then what starts one.
  for (const match of text.matchAll(/[.!?]["')\]]*(?= +["'([]*(?:[A-Z0-9]|gw\b|--?[a-z]))/g)) {
    const end = match.index + match[0].length
    const before = text.slice(start, end)
    if (ABBREVIATIONS.test(before.slice(0, before.length - match[0].length + 1))) continue
    sentences.push(before.trim())
    start = end
  }
  const rest = text.slice(start).trim()
  if (rest) sentences.push(rest)
  return sentences
}

/** Words: runs between spaces with a letter or digit in them (a code span or URL is one). */
export function wordCount(sentence: string): number {
  return sentence.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
}

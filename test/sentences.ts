/**
 * The sentences of prose a reader takes in, for the 40-word rule (guide.md, design.md §3): what a
 * code block, inline code, a URL or a link's address holds is not prose. A code span, URL or link
 * counts as one word.
 *
 * A sentence ends only where a reader's does, as the project's stop check counts them: at . ! or ?
 * before a space or the end (not in e.g. or i.e.), at a blank line, at a heading and at a table cell's
 * edge. A list item is no sentence of its own: one that ends in ; or , or nothing runs on into the
 * next item, and an intro line ending in : runs on into its list. So end each item with a full stop
 * where each is a sentence. An intro ending in : runs on past a blank line or a code block into the
 * text after it, a list or a paragraph, as a reader goes on from "Run this:" to what it does. A
 * heading or a table after it ends its sentence.
 */
export interface Sentence {
  /** 1-based line of the text it starts in. */
  line: number
  text: string
  words: number
}

/** Words that end in a full stop without ending a sentence: a title only capitalised (ms is milliseconds). */
const ABBREVIATIONS = /(?:^|\s)(?:[eE]\.g|[iI]\.e|etc|vs|cf|approx|No|Mr|Ms|Dr|St)\.$/
const CODE = 'CODE'
/** A help topic's row: an indented first column, two spaces or more, then what it is. */
const ROW = /^ +\S(?:.*?\S)? {2,}(?=\S)/

/** A list item or a paragraph's first line, with the lines that go on it joined. */
interface Piece {
  line: number
  text: string
}

/**
 * Markdown (or a help text, which is plain text in the same shape) as its sentences. `lines`: each
 * line but a list item is a paragraph of its own, as a command's description is written. `columns`:
 * a help topic's indented rows (`  NAME  what it is`) are a sentence each, their first column left out.
 */
export function sentencesOf(text: string, {columns = false, lines = false} = {}): Sentence[] {
  const shaped = lines ? text.replace(/\n(?![-*+] |\d+[.)] )/g, '\n\n') : text
  return blocksOf(shaped, columns).flatMap((block) => sentencesOfBlock(block))
}

/**
 * The runs of text a sentence cannot cross, each as its pieces: a paragraph with any list that
 * follows it (up to a blank line, but past one after an intro ending in :), a heading, a table cell,
 * a help topic's row. Code is left out.
 */
function blocksOf(text: string, columns: boolean): Piece[][] {
  const lines = text.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, '')).split('\n')
  const blocks: Piece[][] = []
  let block: Piece[] | undefined
  // An intro ending in : that a blank line or code ended: its sentence waits, past them, for the text after it.
  let held: Piece[] | undefined
  let row = false
  const end = () => {
    if (block?.some((piece) => piece.text.trim())) blocks.push(block)
    block = undefined
    row = false
  }
  // A heading, a table or the end comes after the intro instead: the intro's sentence ends where it does.
  const release = () => {
    if (held) blocks.push(held)
    held = undefined
  }
  const hold = () => {
    if (held || !block?.at(-1)!.text.endsWith(':')) return
    held = block
    block = undefined
  }
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!
    const fence = /^\s*(```|~~~)/.exec(raw)
    if (fence) {
      hold()
      end()
      while (++i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) {
        // the block's lines are code
      }
      continue
    }
    const trimmed = raw.trim()
    if (trimmed === '') {
      hold()
      end()
      continue
    }
    if (/^#{1,6}\s/.test(trimmed)) {
      release()
      end()
      blocks.push([{line: i + 1, text: trimmed.replace(/^#+\s*/, '')}])
      continue
    }
    if (trimmed.startsWith('|')) {
      release()
      end()
      if (/^\|[\s:|-]+\|$/.test(trimmed)) continue
      for (const cell of trimmed.replace(/^\||\|$/g, '').split(/(?<!\\)\|/)) if (cell.trim()) blocks.push([{line: i + 1, text: cell.trim()}])
      continue
    }
    if (columns && ROW.test(raw)) {
      release()
      end()
      block = [{line: i + 1, text: raw.replace(ROW, '')}]
      row = true
      continue
    }
    const indented = /^\s{4,}\S/.test(raw)
    // A row goes on in the lines indented under it, and ends where they do, as a table's cell does.
    if (row && !indented) end()
    // An indented line of a help text that reads as a command or a column (two spaces between) is not prose.
    if (indented && !block) continue
    const item = /^([-*+]|\d+[.)])\s+(.*)$/.exec(trimmed)
    if (held) {
      // The text after a blank line or code goes on from its intro, a piece of its own for its line.
      block = held
      held = undefined
      block.push({line: i + 1, text: item ? item[2]! : trimmed})
    } else if (item || !block) (block ??= []).push({line: i + 1, text: item ? item[2]! : trimmed})
    else block.at(-1)!.text += ` ${trimmed}`
  }
  release()
  end()
  return blocks
}

/** A block's sentences: its pieces' prose joined by spaces, split at the punctuation that ends one. */
function sentencesOfBlock(block: Piece[]): Sentence[] {
  const starts: {line: number; at: number}[] = []
  let text = ''
  for (const piece of block) {
    const prose = flatten(piece.text)
    if (!prose) continue
    if (text) text += ' '
    starts.push({line: piece.line, at: text.length})
    text += prose
  }
  const lineAt = (offset: number) => starts.findLast((start) => start.at <= offset)!.line
  const sentences: Sentence[] = []
  let start = 0
  const add = (end: number) => {
    const sentence = text.slice(start, end).trim()
    if (sentence) sentences.push({line: lineAt(start + text.slice(start).search(/\S/)), text: sentence, words: wordCount(sentence)})
    start = end
  }
  // An end of a sentence: . ! or ? (and any closing quote or bracket) before a space or the end.
  for (const match of text.matchAll(/[.!?]["')\]]*(?= |$)/g)) {
    const end = match.index + match[0].length
    if (ABBREVIATIONS.test(text.slice(start, match.index + 1))) continue
    add(end)
  }
  add(text.length)
  return sentences
}

/** The piece's prose: code spans, URLs and links' addresses made one word each. */
function flatten(text: string): string {
  return text
    .replace(/`+[^`]*`+/g, CODE)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<https?:[^>]*>|https?:\/\/\S+/g, 'URL')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Words: runs between spaces with a letter or digit in them (a code span or URL is one). */
export function wordCount(sentence: string): number {
  return sentence.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
}

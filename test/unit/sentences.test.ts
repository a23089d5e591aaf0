import {describe, expect, it} from 'vitest'
import {sentencesOf, wordCount} from '../sentences.js'

// The splitter behind test/e2e/prose.test.ts: what it counts as a sentence and as a word.
const texts = (markdown: string, columns = false) => sentencesOf(markdown, {columns}).map((sentence) => [sentence.line, sentence.text, sentence.words])

describe('sentencesOf', () => {
  it('splits at a full stop, question or exclamation mark before a capital, a digit, a code span, a flag or gw; not after e.g.', () => {
    expect(texts('One two. Three four? `gw x` runs! gw says so. --all too. Then e.g. Five is one.')).toEqual([
      [1, 'One two.', 2],
      [1, 'Three four?', 2],
      [1, 'CODE runs!', 2],
      [1, 'gw says so.', 3],
      [1, '--all too.', 2],
      [1, 'Then e.g. Five is one.', 5],
    ])
  })

  it('leaves out code blocks and comments; a code span, link or URL is one word', () => {
    const markdown = ['Run [the guide](docs/x.md) at https://example.com/a/b now, with `gw purchase create --amount 1`.', '', '```sh', 'gw a b c d e f', '```', '<!-- a comment of many words -->', 'Done.'].join('\n')
    expect(texts(markdown)).toEqual([
      [1, 'Run the guide at URL now, with CODE.', 8],
      [7, 'Done.', 1],
    ])
  })

  it('a heading, a list item and a table cell is a sentence of its own at least; a list item\'s lines join', () => {
    const markdown = ['# A title', '- first item', '  goes on', '- second', '', '| What | Where |', '| --- | --- |', '| a cell | another. Two |'].join('\n')
    expect(texts(markdown)).toEqual([
      [1, 'A title', 2],
      [2, 'first item goes on', 4],
      [4, 'second', 1],
      [6, 'What', 1],
      [6, 'Where', 1],
      [8, 'a cell', 2],
      [8, 'another.', 1],
      [8, 'Two', 1],
    ])
  })

  it("a help topic's rows are a sentence each, the first column left out", () => {
    expect(texts('EXIT CODES\n  0    done; approved\n  1    failed', true)).toEqual([
      [1, 'EXIT CODES', 2],
      [2, 'done; approved', 2],
      [3, 'failed', 1],
    ])
  })

  it('counts words with a letter or digit', () => {
    expect(wordCount('a - b, 10 — `x`')).toBe(4)
  })
})

describe('sentencesOf a help description', () => {
  it('takes each line as printed for a paragraph of its own', () => {
    expect(sentencesOf('First line goes\nSecond line.\n- an item', {lines: true}).map((sentence) => sentence.text)).toEqual(['First line goes', 'Second line.', 'an item'])
  })
})

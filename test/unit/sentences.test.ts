import {describe, expect, it} from 'vitest'
import {sentencesOf, wordCount} from '../sentences.js'

// The splitter behind test/e2e/prose.test.ts: what it counts as a sentence and as a word.
const texts = (markdown: string, columns = false) => sentencesOf(markdown, {columns}).map((sentence) => [sentence.line, sentence.text, sentence.words])

describe('sentencesOf', () => {
  it('splits at a full stop, question or exclamation mark before a space or the end; not after e.g. (but after ms, milliseconds), nor in a file name or a code span', () => {
    expect(texts('One two. Three four? `gw x. y` runs! gw says so. --all too. It took 30 ms. Then e.g. five, i.e. six, is one. bin/run.js and v1.2 are words. stdout is one too.')).toEqual([
      [1, 'One two.', 2],
      [1, 'Three four?', 2],
      [1, 'CODE runs!', 2],
      [1, 'gw says so.', 3],
      [1, '--all too.', 2],
      [1, 'It took 30 ms.', 4],
      [1, 'Then e.g. five, i.e. six, is one.', 7],
      [1, 'bin/run.js and v1.2 are words.', 5],
      [1, 'stdout is one too.', 4],
    ])
  })

  it.each<[string, string[], [number, string, number][]]>([
    [
      'leaves out code blocks and comments; a code span, link or URL is one word',
      ['Run [the guide](docs/x.md) at https://example.com/a/b now, with `gw purchase create --amount 1`.', '', '```sh', 'gw a b c d e f', '```', '<!-- a comment of many words -->', 'Done.'],
      [
        [1, 'Run the guide at URL now, with CODE.', 8],
        [7, 'Done.', 1],
      ],
    ],
    [
      "a heading and a table cell is a sentence of its own at least; a list item's lines join",
      ['# A title', '- first item', '  goes on.', '- second.', '', '| What | Where |', '| --- | --- |', '| a cell | another. Two |'],
      [
        [1, 'A title', 2],
        [2, 'first item goes on.', 4],
        [4, 'second.', 1],
        [6, 'What', 1],
        [6, 'Where', 1],
        [8, 'a cell', 2],
        [8, 'another.', 1],
        [8, 'Two', 1],
      ],
    ],
    [
      'a list item ending in ; or , or nothing runs on into the next, and an intro ending in : into its list',
      ['The projects:', '- `unit`: test/unit, many files to a worker process;', '- `e2e`: every end-to-end file,', '- `dialect` last', '', 'Apart.'],
      [
        [1, 'The projects: CODE: test/unit, many files to a worker process; CODE: every end-to-end file, CODE last', 16],
        [6, 'Apart.', 1],
      ],
    ],
    [
      'a list whose items end in a full stop is a sentence an item, the intro one of its own',
      ['The guides.', '- [Installing gw](docs/install.md).', '- [Output](docs/output.md), and `gw api`!', '1. Is it one?', '', 'A blank line ends one', '', '## so does a heading'],
      [
        [1, 'The guides.', 2],
        [2, 'Installing gw.', 2],
        [3, 'Output, and CODE!', 3],
        [4, 'Is it one?', 3],
        [6, 'A blank line ends one', 5],
        [8, 'so does a heading', 4],
      ],
    ],
    [
      'an intro ending in : before a code block runs on, past the code and a readme-test marker, into the text after it, and a list after it',
      ['Run this:', '', '<!-- readme-test: not run -->', '```sh', 'gw a b c. d e f.', '```', '', 'then it does X and Y.', 'Apart.', '', 'And:', '```', 'x', '```', '```', 'y', '```', '- an item;', '- another.'],
      [
        [1, 'Run this: then it does X and Y.', 8],
        [8, 'Apart.', 1],
        [11, 'And: an item; another.', 4],
      ],
    ],
    [
      'text that ends a sentence before a code block stays one; an intro ends where a heading, a table or the end follows its code or a blank line',
      ['Run this.', '```sh', 'x', '```', 'Then that.', '', 'Or this:', '```sh', 'y', '```', '', '## A heading', 'Pick one:', '', '| a cell |', 'Last:', '```', 'z', '```'],
      [
        [1, 'Run this.', 2],
        [5, 'Then that.', 2],
        [7, 'Or this:', 2],
        [12, 'A heading', 2],
        [13, 'Pick one:', 2],
        [15, 'a cell', 2],
        [16, 'Last:', 1],
      ],
    ],
    [
      'an intro ending in : runs on past a blank line, with no code between, into a list or a paragraph; an intro with a full stop does not',
      ['Each of these is exit 2:', '', '- a flag it does not know', '- a missing argument', '', 'Apart.', '', 'Pick one:', '', 'Next.', '', 'There are two.', '', '- one.'],
      [
        [1, 'Each of these is exit 2: a flag it does not know a missing argument', 15],
        [6, 'Apart.', 1],
        [8, 'Pick one: Next.', 3],
        [12, 'There are two.', 3],
        [14, 'one.', 1],
      ],
    ],
  ])('%s', (_, lines, expected) => {
    expect(texts(lines.join('\n'))).toEqual(expected)
  })

  it("a help topic's rows are a sentence each, the first column left out, with the lines indented under them; its indented prose lines join", () => {
    expect(texts('EXIT CODES\n  0    done; approved\n  1    failed and\n       wrapped\n  Prose that\n  goes on', true)).toEqual([
      [1, 'EXIT CODES', 2],
      [2, 'done; approved', 2],
      [3, 'failed and wrapped', 3],
      [5, 'Prose that goes on', 4],
    ])
  })

  it('counts words with a letter or digit', () => {
    expect(wordCount('a - b, 10 — `x`')).toBe(4)
  })
})

describe('sentencesOf a help description', () => {
  it('takes each line for a paragraph of its own, but a list, which joins its intro as in Markdown', () => {
    expect(sentencesOf('First line goes\nSecond line:\n- an item;\n- another.\nLast', {lines: true}).map((sentence) => sentence.text)).toEqual(['First line goes', 'Second line: an item; another.', 'Last'])
  })
})

import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

// design.md §7: the client, the money decisions and the operations throw errors that carry facts;
// src/output words them in gw's terms. A command (`gw refund get ...`) or a flag (`--page`) in their
// code, rather than in a comment, is CLI wording in the wrong place.
const src = join(import.meta.dirname, '..', '..', 'src')
const COMMAND = /\bgw (purchase|refund|card|plan|customer|subscription|sandbox|webhook|login|logout|status|profile|api|listen|help|report|completion)\b/
const FLAG = /(^|[\s'"`(])--[a-z][a-z-]+/

/** The file's code with its comments blanked out, line by line (line numbers kept). */
function codeOf(text: string): string[] {
  const withoutBlocks = text.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' '))
  return withoutBlocks.split('\n').map((line) => line.replace(/(^|\s)\/\/.*$/, ''))
}

describe('where CLI wording lives', () => {
  it.each(['api', 'money', 'operations'])('src/%s names no gw command and no flag outside its comments', (folder) => {
    const found: string[] = []
    for (const file of readdirSync(join(src, folder), {recursive: true, encoding: 'utf8'}).filter((name) => name.endsWith('.ts'))) {
      codeOf(readFileSync(join(src, folder, file), 'utf8')).forEach((line, index) => {
        if (COMMAND.test(line) || FLAG.test(line)) found.push(`src/${folder}/${file}:${index + 1}: ${line.trim()}`)
      })
    }
    expect(found).toEqual([])
  })
})

import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {isolatedHome, runGw, runProgram} from './helpers.js'

// Every curl line in the code blocks of docs/ and the README, run as shown, in the order of each
// file, against a local gateway of its own (they add faults and reset it, which the README test's
// gateway must not get): each exits 0 and is answered 2xx in the envelope, successful. The only
// change made to what the reader sees: the default gateway's address becomes this one's.
const ROOT = join(import.meta.dirname, '..', '..')
const DEFAULT_ADDRESS = 'http://127.0.0.1:8787'

function guides(dir: string): string[] {
  return readdirSync(join(ROOT, dir), {withFileTypes: true}).flatMap((entry) => (entry.isDirectory() ? guides(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []))
}

function curlLines(file: string): {line: number; command: string}[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
  const found: {line: number; command: string}[] = []
  let inBlock = false
  lines.forEach((text, index) => {
    if (text.startsWith('```')) inBlock = !inBlock
    else if (inBlock && /^curl\s/.test(text.trim())) found.push({line: index + 1, command: text.trim()})
  })
  return found
}

const examples = ['README.md', ...guides('docs')].flatMap((file) => curlLines(file).map((example) => ({file, ...example})))
const home = isolatedHome()
let url: string

beforeAll(async () => {
  url = (await runGw(['sandbox', 'start', '--detach', '--port', '0'], {env: home})).stdout.trim()
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
}, 60_000)

afterAll(async () => {
  await runGw(['sandbox', 'stop', '--all'], {env: home})
})

describe('every curl example in docs/', () => {
  it('are found: the control API has its examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(7)
    expect(examples.some(({command}) => command.startsWith('curl -s -X DELETE'))).toBe(true)
  })

  for (const {file, line, command} of examples) {
    it(`${file} line ${line}: ${command.slice(0, 90)}`, async () => {
      expect(command, 'an example talks to the default gateway, whose address the test replaces').toContain(DEFAULT_ADDRESS)
      const asRun = `${command.replaceAll(DEFAULT_ADDRESS, url).replace(/^curl /, `curl -w '\\n%{http_code}' `)}`
      // A HOME of the test's: bash on a pipe reads ~/.bashrc, and the developer's took a second.
      const result = await runProgram('bash', ['-e', '-o', 'pipefail', '-c', asRun], {env: {HOME: home.HOME}})
      expect(result.code, result.stderr).toBe(0)
      const lines = result.stdout.split('\n')
      const status = Number(lines.pop())
      expect(status, result.stdout).toBeGreaterThanOrEqual(200)
      expect(status, result.stdout).toBeLessThan(300)
      expect(JSON.parse(lines.join('\n')), result.stdout).toMatchObject({successful: true})
    })
  }
})

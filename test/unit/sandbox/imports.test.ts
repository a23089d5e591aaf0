import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'

// The local gateway stands apart from gw (CONTRIBUTING.md, the layout): it shares the record
// schemas, card-data and terminal safety, the helpers that know nothing of gw, and the error
// types, and nothing else, so that it answers as a gateway would and never as gw's client thinks.
const src = join(import.meta.dirname, '..', '..', '..', 'src')
const ALLOWED = [/^sandbox\//, /^api\/schemas\//, /^safety\//, /^lib\//, /^errors\.ts$/]
const PACKAGES = /^(node:.+|zod)$/

/** Every module specifier in a file: static and dynamic imports and re-exports, types included. */
export function specifiersIn(source: string): string[] {
  const found = source.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm)
  return [...found].map((match) => match[1] ?? match[2] ?? match[3]!)
}

function sourceFile(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''))
  const found = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate))
  if (!found) throw new Error(`${relative(src, from)}: ${specifier} names no file`)
  return found
}

/** Each module the local gateway reaches, with the module that first imports it; packages apart. */
function reached(): {modules: Map<string, string>; packages: Map<string, string>} {
  const entries = readdirSync(join(src, 'sandbox'), {recursive: true, encoding: 'utf8'})
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(src, 'sandbox', name))
  const modules = new Map(entries.map((file) => [file, 'src/sandbox']))
  const packages = new Map<string, string>()
  const queue = [...entries]
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const specifier of specifiersIn(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) {
        packages.set(specifier, relative(src, file))
        continue
      }
      const target = sourceFile(file, specifier)
      if (modules.has(target)) continue
      modules.set(target, relative(src, file))
      queue.push(target)
    }
  }
  return {modules, packages}
}

describe('what the local gateway imports', () => {
  it('reads every kind of import, types and import() included', () => {
    const source = [
      "import {a} from './a.js'",
      "import type {B} from '../b.js'",
      "export {c} from './c.js'",
      "export type {D} from './d.js'",
      "const e = await import('./e.js')",
      'import {\n  f,\n  g,\n} from "./f.js"',
      "import 'node:fs'",
    ].join('\n')
    expect(specifiersIn(source)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js', './f.js', 'node:fs'])
  })

  it('reaches only itself, the schemas, safety/, lib/ and errors.ts, and only Node and zod among packages', () => {
    const {modules, packages} = reached()
    const outside = [...modules]
      .map(([file, by]) => [relative(src, file), by] as const)
      .filter(([file]) => !ALLOWED.some((allowed) => allowed.test(file)))
      .map(([file, by]) => `${file} (imported by ${by})`)
    expect(outside).toEqual([])
    expect([...packages].filter(([name]) => !PACKAGES.test(name)).map(([name, by]) => `${name} (imported by ${by})`)).toEqual([])
    // The walk did reach beyond src/sandbox, so a broken walk cannot pass by finding nothing.
    expect([...modules.keys()].map((file) => relative(src, file))).toEqual(expect.arrayContaining(['api/schemas/purchase.ts', 'safety/redact.ts', 'lib/file-lock.ts']))
  })
})

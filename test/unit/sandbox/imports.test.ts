import {readdirSync} from 'node:fs'
import {join, relative} from 'node:path'
import {describe, expect, it} from 'vitest'
import {importsOf} from '../import-graph.js'

// The local gateway stands apart from gw (CONTRIBUTING.md, the layout): it shares the record
// schemas, card-data and terminal safety, the helpers that know nothing of gw, and the error
// types, and nothing else, so that it answers as a gateway would and never as gw's client thinks.
const src = join(import.meta.dirname, '..', '..', '..', 'src')
const ALLOWED = [/^sandbox\//, /^api\/schemas\//, /^safety\//, /^lib\//, /^errors\.ts$/]
const PACKAGES = /^(node:.+|zod)$/

/** Each module the local gateway reaches, types and import() included, with the module that first imports it; packages apart. */
function reached(): {modules: Map<string, string>; packages: Map<string, string>} {
  const entries = readdirSync(join(src, 'sandbox'), {recursive: true, encoding: 'utf8'})
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(src, 'sandbox', name))
  const modules = new Map(entries.map((file) => [file, 'src/sandbox']))
  const packages = new Map<string, string>()
  const queue = [...entries]
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const imported = importsOf(file)
    for (const name of imported.packages) packages.set(name, relative(src, file))
    for (const target of imported.files) {
      if (modules.has(target)) continue
      modules.set(target, relative(src, file))
      queue.push(target)
    }
  }
  return {modules, packages}
}

describe('what the local gateway imports', () => {
  it('reaches only itself, the schemas, safety/, lib/ and errors.ts, and only Node and zod among packages', () => {
    const {modules, packages} = reached()
    const outside = [...modules]
      .map(([file, by]) => [relative(src, file), by] as const)
      .filter(([file]) => !ALLOWED.some((allowed) => allowed.test(file)))
      .map(([file, by]) => `${file} (imported by ${by})`)
    expect(outside).toEqual([])
    expect([...packages].filter(([name]) => !PACKAGES.test(name)).map(([name, by]) => `${name} (imported by ${by})`)).toEqual([])
    // The walk did reach beyond src/sandbox, so a broken walk cannot pass by finding nothing.
    expect([...modules.keys()].map((file) => relative(src, file))).toEqual(expect.arrayContaining(['api/schemas/purchase.ts', 'safety/redact.ts', 'lib/locked-database.ts']))
  })
})

import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {types} from 'node:util'
import ts from 'typescript'
import * as z from 'zod'
import {describe, expect, it} from 'vitest'
import * as schemas from '../../../../src/api/schemas/index.js'

// What a command costs before it runs: design.md §7, heavy modules load lazily (bench/README.md,
// "Keeping gw purchase get fast"). oclif loads the one command it runs, and that module's static
// imports with it; what a command needs to run (the client, zod, undici, tables, prompts, the
// local gateway) is imported inside its input() and operate(). These fail on the change that
// would make every start slower.
const src = join(import.meta.dirname, '..', '..', '..', '..', 'src')

/** The modules a file imports for their values at load: type-only imports and import() left out. */
export function loadImports(source: string): string[] {
  const file = ts.createSourceFile('file.ts', source, ts.ScriptTarget.Latest, false)
  const specifiers: string[] = []
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined
      const typesOnly = clause?.isTypeOnly || (clause && !clause.name && named && named.length > 0 && named.every((element) => element.isTypeOnly))
      if (!typesOnly) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text)
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text)
    }
  }
  return specifiers
}

/** A source file's load imports, each file parsed once for all the tests here (~500 walk the same modules). */
const importsOfFile = new Map<string, string[]>()
function importsOf(file: string): string[] {
  let imports = importsOfFile.get(file)
  if (!imports) importsOfFile.set(file, (imports = loadImports(readFileSync(file, 'utf8'))))
  return imports
}

/** Each module loaded with `file`, by the chain of imports that loads it first. */
function loadedWith(file: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[file, [file]]])
  const queue = [file]
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    const from = at
    for (const specifier of importsOf(from)) {
      const target = specifier.startsWith('.') ? sourceFile(dirname(from), specifier) : specifier
      if (target === undefined || chains.has(target)) continue
      chains.set(target, [...chains.get(from)!, target])
      if (target.endsWith('.ts')) queue.push(target)
    }
  }
  return chains
}

function sourceFile(from: string, specifier: string): string | undefined {
  const base = resolve(from, specifier.replace(/\.js$/, ''))
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate))
}

/** Packages a command may load with its module: oclif itself, and Node's own. */
const LIGHT_PACKAGE = /^(@oclif\/core|node:.*|gw:commands)$/
/** gw's modules that cost a start: zod's schemas, the client and its transport, tables, prompts, batches, the local gateway (but for the names of its runs, two constants the flags check). */
const HEAVY_MODULE = /^(api\/(client|endpoints|exchange|transport|resources|recovery)\.ts|api\/schemas\/(?!(bank-rules|card-rules|recurring-rules|rules|test-outcomes|fault-actions)\.ts)|output\/(table|prompt|render|batch)\.ts|batch\/(runner|journal|rows|read)\.ts|lists\/|sandbox\/(?!server\/names\.ts|domain\/web-hook-order\.ts)|webhooks\/(listen|receiver|forward)\.ts)/

const commands = readdirSync(join(src, 'commands'), {recursive: true, encoding: 'utf8'})
  .filter((name) => name.endsWith('.ts'))
  .sort()

describe("a command's module loads nothing heavy: what it needs to run is imported inside input() and operate()", () => {
  it('reads value imports and leaves out type-only imports and import()', () => {
    const source = [
      "import {a} from './a.js'",
      "import type {B} from './b.js'",
      "import {type C, type D} from './c.js'",
      "import {type E, f} from './e.js'",
      "export {g} from './g.js'",
      "export type {H} from './h.js'",
      "const i = await import('./i.js')",
    ].join('\n')
    expect(loadImports(source)).toEqual(['./a.js', './e.js', './g.js'])
  })

  it.each(commands)('%s', (command) => {
    const chains = loadedWith(join(src, 'commands', command))
    const heavy = [...chains]
      .filter(([module]) => (module.endsWith('.ts') ? HEAVY_MODULE.test(relative(src, module)) : !LIGHT_PACKAGE.test(module)))
      .map(([, chain]) => chain.map((module) => (module.endsWith('.ts') ? relative(src, module) : module)).join(' -> '))
    expect(heavy).toEqual([])
  })
})

describe('schemas are built when first used (src/api/schemas/lazy.ts)', () => {
  // The fields every record shares, and the envelope every answer is read with, are built at once.
  const atOnce = new Set(['looseString', 'looseBoolean', 'looseInt', 'stringOrNumber', 'recordCardNumber', 'beyondContract', 'Envelope'])

  it('every record and request body is a stand-in, not a schema built at import', () => {
    const built = Object.entries(schemas)
      .filter(([name, value]) => value instanceof z.ZodType && !atOnce.has(name) && !types.isProxy(value))
      .map(([name]) => name)
    expect(built).toEqual([])
    expect(types.isProxy(schemas.Purchase)).toBe(true)
  })
})

describe("the terminal's text widths load only where a terminal is drawn", () => {
  // string-width builds its Unicode tables when loaded: ~22 ms of a `gw purchase create` in a pipe,
  // a fifth of its CPU, when card-input.ts loaded the prompts for a check it shares with them.
  const drawing = new Set(['output/text-width.ts', 'output/prompt.ts', 'output/table.ts', 'output/table-forms.ts'])
  const modules = readdirSync(src, {recursive: true, encoding: 'utf8'})
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !drawing.has(name))
    .sort()

  it.each(modules)('%s', (module) => {
    const chains = loadedWith(join(src, module))
    const widths = [...chains]
      .filter(([loaded]) => loaded === join(src, 'output', 'text-width.ts') || /^(string-width|slice-ansi|wrap-ansi)$/.test(loaded))
      .map(([, chain]) => chain.map((loaded) => (loaded.endsWith('.ts') ? relative(src, loaded) : loaded)).join(' -> '))
    expect(widths).toEqual([])
  })
})

describe('a local gateway started without --state', () => {
  // Its schemas, SQLite and locks: 17 ms of CPU of each `gw sandbox start` (110 → 93 ms once apart).
  it('loads none of the state file\'s code: persist.ts is imported only when a state file is given', () => {
    const loaded = [...loadedWith(join(src, 'sandbox', 'server', 'server.ts')).keys()].map((module) => relative(src, module))
    expect(loaded.filter((module) => /^sandbox\/server\/(persist|state-schema|state-database)\.ts$/.test(module))).toEqual([])
  })
})

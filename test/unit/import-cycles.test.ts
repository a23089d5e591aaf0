import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'

// No module of src imports, through any chain, a module that imports it back. Type-only
// and lazy imports count: a loop of types is still a knot for the reader, and a lazy import() is an
// edge the bundle keeps.
const src = join(import.meta.dirname, '..', '..', 'src')

/** Each .ts file of `root` and the files of `root` it imports: static, type-only, re-exported, import() and import types. */
export function importGraph(root: string): Map<string, string[]> {
  const files = readdirSync(root, {recursive: true, encoding: 'utf8'})
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(root, name))
  const graph = new Map<string, string[]>()
  for (const file of files) {
    // preProcessFile reads every import form, type-only ones included, without type-checking.
    const {importedFiles} = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = importedFiles
      .map(({fileName}) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveSpecifier(dirname(file), specifier))
      .filter((target): target is string => target !== undefined)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** `./x.js` as the .ts file (or folder index) it names, as TypeScript's NodeNext resolution reads it. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(from, specifier.replace(/\.js$/, ''))
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate))
}

/** The strongly connected components of more than one file, or of one file importing itself (Tarjan). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0
  const order = new Map<string, number>()
  const lowest = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (file: string): void => {
    order.set(file, counter)
    lowest.set(file, counter++)
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next)
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!))
      } else if (onStack.has(next)) lowest.set(file, Math.min(lowest.get(file)!, order.get(next)!))
    }
    if (lowest.get(file) !== order.get(file)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || graph.get(file)?.includes(file)) cycles.push(component.sort())
  }
  for (const file of graph.keys()) if (!order.has(file)) visit(file)
  return cycles
}

describe('import cycles', () => {
  it('finds a loop through a type-only import and one through import()', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['c']],
      ['d', ['a']],
    ])
    expect(importCycles(graph)).toEqual([['a', 'b'], ['c']])
  })

  it('reads type-only, re-exported and lazy imports, and import types', () => {
    const {importedFiles} = ts.preProcessFile(
      ["import type {A} from './a.js'", "export {B} from './b.js'", "const c = await import('./c.js')", "type D = typeof import('./d.js')"].join('\n'),
      true,
      true,
    )
    expect(importedFiles.map(({fileName}) => fileName)).toEqual(['./a.js', './b.js', './c.js', './d.js'])
  })

  it('src has none, type imports included', () => {
    const cycles = importCycles(importGraph(src)).map((cycle) => cycle.map((file) => relative(src, file)).join(' <-> '))
    expect(cycles).toEqual([])
  })
})

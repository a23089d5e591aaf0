import {join, relative} from 'node:path'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'
import {importGraph} from './import-graph.js'

// No module of src imports, through any chain, a module that imports it back. Type-only
// and lazy imports count: a loop of types is still a knot for the reader, and a lazy import() is an
// edge the bundle keeps.
const src = join(import.meta.dirname, '..', '..', 'src')

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

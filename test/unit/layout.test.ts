import {readdirSync, readFileSync} from 'node:fs'
import {join, sep} from 'node:path'
import {describe, expect, it} from 'vitest'
import {importGraph} from './import-graph.js'

// CONTRIBUTING.md's map of src/ is how a newcomer finds where a piece goes: it names every folder
// there is (commands/ by itself: its folders are its topics), the root holds no loose module, and
// no module is longer than a reader holds in mind at once.
const root = join(import.meta.dirname, '..', '..')
const src = join(root, 'src')

/** The folders CONTRIBUTING.md's map names, as paths under src/ (`sandbox/server`). */
export function foldersOfMap(markdown: string): string[] {
  const block = /^```text\nsrc\/\n([\s\S]*?)^```$/m.exec(markdown)
  if (!block) throw new Error('CONTRIBUTING.md has no map of src/ (a ```text block starting with src/)')
  const folders: string[] = []
  const path: string[] = []
  for (const line of block[1]!.split('\n')) {
    const entry = /^( +)(\S+)/.exec(line)
    if (!entry) continue
    const depth = entry[1]!.length / 2 - 1
    if (!entry[2]!.endsWith('/')) continue
    path.length = depth
    path.push(entry[2]!.slice(0, -1))
    folders.push(path.join('/'))
  }
  return folders
}

describe('the layout of src/', () => {
  it('reads a map: a folder a line, nested by two spaces', () => {
    expect(foldersOfMap('```text\nsrc/\n  a.ts   x\n  b/     y\n    c/   z\n  d/\n```\n')).toEqual(['b', 'b/c', 'd'])
  })

  it("is CONTRIBUTING.md's map: every folder of src/ is on it, and every folder on it is in src/", () => {
    const onMap = foldersOfMap(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8'))
    const inSrc = readdirSync(src, {recursive: true, withFileTypes: true})
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(entry.parentPath, entry.name).slice(src.length + 1))
      .filter((folder) => !folder.startsWith('commands/'))
    expect(onMap.toSorted()).toEqual(inSrc.toSorted())
  })

  it('holds at its root only the entry, the errors and declarations', () => {
    const loose = readdirSync(src, {withFileTypes: true}).filter((entry) => entry.isFile()).map((entry) => entry.name)
    expect(loose.filter((name) => !name.endsWith('.d.ts')).toSorted()).toEqual(['errors.ts', 'index.ts'])
  })

  it('has no file over 300 lines: a longer one holds more than one idea', () => {
    const long = readdirSync(src, {recursive: true, encoding: 'utf8'})
      .filter((name) => name.endsWith('.ts'))
      .map((name) => [name, readFileSync(join(src, name), 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 300)
    expect(long).toEqual([])
  })

  // CONTRIBUTING.md's map: a command runs its flags through cli/ into one operation. Whatever lies
  // below the command line (an operation, a batch's or a list's run, the client, the money decisions,
  // output) takes plain inputs and dependencies, so a flag's default or the Factory's shape can
  // change without reaching into it. Only the entry (index.ts) stands above the commands.
  it('has nothing below the command line import it: no file outside commands/ and cli/ imports either, types included', () => {
    const graph = importGraph(src)
    const above = (file: string) => [join(src, 'commands') + sep, join(src, 'cli') + sep].some((folder) => file.startsWith(folder))
    const upward = [...graph]
      .filter(([file]) => !above(file) && file !== join(src, 'index.ts'))
      .flatMap(([file, files]) => files.filter(above).map((target) => `${file.slice(src.length + 1)} imports ${target.slice(src.length + 1)}`))
    expect(upward).toEqual([])
    // The walk does see imports of cli/ (a command's of its base), so a broken walk cannot pass by finding none.
    expect(graph.get(join(src, 'commands', 'purchase', 'create.ts'))).toContain(join(src, 'cli', 'gw-command.ts'))
  })
})

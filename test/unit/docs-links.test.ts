import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {describe, expect, it} from 'vitest'

// The README, the guides in docs/ and CONTRIBUTING.md link to each other; every relative
// link names a file that exists, and every #anchor a heading there (GitHub's slugs).
const ROOT = join(import.meta.dirname, '..', '..')
const guides = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))
const FILES = ['README.md', 'CONTRIBUTING.md', ...guides]

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces made dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replaceAll(' ', '-')

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
  return new Set([...text.matchAll(/^#+ (.+)$/gm)].map((match) => slug(match[1]!)))
}

function linksOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target))
}

describe('links between the README, the guides and CONTRIBUTING.md', () => {
  it.each(FILES)('%s: every relative link and anchor resolves', (file) => {
    const broken: string[] = []
    for (const link of linksOf(file)) {
      const [path, anchor] = link.split('#') as [string, string | undefined]
      const target = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), path))
      if (!existsSync(join(ROOT, target))) broken.push(`${link}: no file ${target}`)
      else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) broken.push(`${link}: no heading #${anchor} in ${target}`)
    }
    expect(broken).toEqual([])
  })

  it("docs/output.md names every field gw adds to the gateway's records, and no guide calls one of them the only one", () => {
    const source = readdirSync(join(ROOT, 'src'), {recursive: true, encoding: 'utf8'}).filter((file) => file.endsWith('.ts'))
    const added = new Set(source.flatMap((file) => [...readFileSync(join(ROOT, 'src', file), 'utf8').matchAll(/\bgw_[a-z_]+\b/g)].map((match) => match[0])))
    expect(added.size).toBeGreaterThan(0)
    const output = readFileSync(join(ROOT, 'docs', 'output.md'), 'utf8')
    for (const field of added) expect(output, field).toContain(`\`${field}\``)
    for (const file of FILES) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/the one field gw adds/)
  })

  it('what gw names of its README and guides (hints, help) is there: every docs/ file and #anchor, every README section in quotes', () => {
    const source = readdirSync(join(ROOT, 'src'), {recursive: true, encoding: 'utf8'}).filter((file) => file.endsWith('.ts'))
    const broken: string[] = []
    for (const file of source) {
      const text = readFileSync(join(ROOT, 'src', file), 'utf8')
      for (const [named, path, anchor] of text.matchAll(/\b(docs\/[\w-]+\.md)(?:#([\w-]+))?/g)) {
        if (!existsSync(join(ROOT, path!))) broken.push(`${file}: ${named}: no such file`)
        else if (anchor !== undefined && !anchorsOf(path!).has(anchor)) broken.push(`${file}: ${named}: no such heading`)
      }
      for (const [named, section] of text.matchAll(/"([^"]+)" (?:in|of) the README/g)) {
        if (!anchorsOf('README.md').has(slug(section!))) broken.push(`${file}: ${named}: no such section`)
      }
    }
    expect(broken).toEqual([])
  })

  it('the README stays short: at most 250 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(251)
  })
})

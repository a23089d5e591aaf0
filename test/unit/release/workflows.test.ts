import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {PLATFORM_TESTS} from '../../../scripts/platform-suite.js'
import {TARGETS} from '../../../scripts/registry-node.js'

// The GitHub workflows cannot run here: they are kept short, use only GitHub's own actions, and
// every step of theirs is a script of this repository that its own tests or CI (.ci/) run here.
const root = join(import.meta.dirname, '..', '..', '..')
const read = (...path: string[]) => readFileSync(join(root, ...path), 'utf8')
const workflows = {ci: read('.github', 'workflows', 'ci.yml'), release: read('.github', 'workflows', 'release.yml')}
const scripts = (JSON.parse(read('package.json')) as {scripts: Record<string, string>}).scripts

/** The value of each `key:` line, the workflow being kept to one-line values for such keys. */
const values = (text: string, key: string) => [...text.matchAll(new RegExp(`^\\s*(?:- )?${key}: (.+)$`, 'gm'))].map(([, value]) => value!.trim())

/** Every file under test/ and .ci/, as text: where a script is run here. */
function testSources(dir = root, under = ['test', '.ci']): string[] {
  return under.flatMap((name) =>
    readdirSync(join(dir, name), {withFileTypes: true, recursive: true})
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8')),
  )
}

/** The repository's scripts a workflow runs: `node scripts/x.js`, and those `npm run y` runs. */
function scriptsRun(text: string): string[] {
  const commands = values(text, 'run')
  const viaNpm = commands.flatMap((command) => [...command.matchAll(/npm run (\S+)/g)].map(([, name]) => scripts[name!] ?? `missing npm script ${name}`))
  return [...new Set([...commands, ...viaNpm].flatMap((command) => [...command.matchAll(/node (scripts\/[\w-]+\.js)/g)].map(([, path]) => path!)))]
}

describe('the GitHub workflows', () => {
  it.each(Object.entries(workflows))('%s uses only GitHub\'s own actions, and no tabs (YAML has none)', (_name, text) => {
    for (const action of values(text, 'uses')) expect(action).toMatch(/^actions\/(checkout|setup-node|upload-artifact|download-artifact)@v\d+$/)
    expect(text).not.toContain('\t')
  })

  it.each(Object.entries(workflows))('%s runs scripts that are run here, by a test or by .ci/', (_name, text) => {
    const run = scriptsRun(text)
    expect(run.length).toBeGreaterThan(0)
    const sources = testSources()
    for (const script of run) expect(sources.some((source) => source.includes(script)), `${script} is run by no test`).toBe(true)
  })

  it('ci.yml runs the platform suite on Ubuntu, macOS and Windows with Node 22.19, 24 and 26', () => {
    expect(workflows.ci).toContain('os: [ubuntu-latest, macos-latest, windows-latest]')
    expect(workflows.ci).toContain("node: ['22.19.0', '24', '26']")
    expect(values(workflows.ci, 'run')).toEqual(['npm ci --no-audit --no-fund', 'node scripts/platform-suite.js'])
    // Batches, lists, money safety and the local gateway among the e2e files it runs; every prefix names files.
    expect(PLATFORM_TESTS).toEqual(expect.arrayContaining(['test/unit', 'test/e2e/batch', 'test/e2e/lists', 'test/e2e/money', 'test/e2e/sandbox']))
    const files = readdirSync(join(root, 'test'), {recursive: true}).map((file) => `test/${String(file)}`)
    for (const prefix of PLATFORM_TESTS) expect(files.some((file) => file.startsWith(prefix) && file.endsWith('.test.ts')), prefix).toBe(true)
  })

  it('release.yml builds every target, macOS ones on macOS, then SHA256SUMS and the manifests from them, and publishes the npm package it listed', () => {
    const jobs = workflows.release.split(/^ {2}(?=[\w-]+:$)/m).slice(1)
    const built = jobs.map((job) => ({runner: values(job, 'runs-on')[0], targets: values(job, 'run').flatMap((command) => /npm run package -- --target (\S+)/.exec(command)?.[1]?.split(',') ?? [])}))
    expect(built.flatMap(({targets}) => targets).sort()).toEqual([...TARGETS].sort())
    for (const {runner, targets} of built) for (const target of targets) expect(runner, target).toBe(target.startsWith('darwin-') ? 'macos-latest' : 'ubuntu-latest')
    const commands = values(workflows.release, 'run')
    expect(commands).toContain('node scripts/release-files.js --tag "$GITHUB_REF_NAME" --base-url "https://github.com/$GITHUB_REPOSITORY/releases/download/$GITHUB_REF_NAME"')
    expect(commands.find((command) => command.startsWith('npm publish'))).toBe('npm publish "release/gw-${GITHUB_REF_NAME#v}.tgz" --provenance --access public')
  })
})

import {convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow} from '@actions/workflow-parser'
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {PLATFORM_TESTS} from '../../../scripts/platform-suite.js'
import {TARGETS} from '../../../scripts/registry-node.js'
import {repositoryOf} from '../../../scripts/release-files.js'

// The GitHub workflows cannot run here: each is checked against GitHub's own workflow schema (its
// parser, @actions/workflow-parser, as GitHub's editor tools use it), kept short, uses only
// GitHub's own actions, and every step of theirs is a script of this repository that its own
// tests or CI (.ci/) run here, npm's install of the clone, or one of the few commands that only a
// release can run (a package install on the runner, gh release create, npm publish), named here.
const root = join(import.meta.dirname, '..', '..', '..')
const read = (...path: string[]) => readFileSync(join(root, ...path), 'utf8')
const files = readdirSync(join(root, '.github', 'workflows')).filter((file) => /\.ya?ml$/.test(file))
const workflows = {ci: read('.github', 'workflows', 'ci.yml'), release: read('.github', 'workflows', 'release.yml')}
const scripts = (JSON.parse(read('package.json')) as {scripts: Record<string, string>}).scripts

/** The value of each `key:` line, the workflow being kept to one-line values for such keys. */
const values = (text: string, key: string) => [...text.matchAll(new RegExp(`^\\s*(?:- )?${key}: (.+)$`, 'gm'))].map(([, value]) => value!.trim())
/** Each job of a workflow, by its id, as the text under it. */
const jobsOf = (text: string) => Object.fromEntries(text.split(/^ {2}(?=[\w-]+:$)/m).slice(1).map((job) => [job.slice(0, job.indexOf(':')), job]))

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

/** What a release's publishing runs that cannot run here: exactly these. */
const RELEASE_ONLY = [
  'sudo apt-get update -qq && sudo apt-get install -y -qq libsecret-1-dev osslsigncode',
  'sudo apt-get update -qq && sudo apt-get install -y -qq osslsigncode',
  'gh release create "$GITHUB_REF_NAME" release/gw-* release/SHA256SUMS release/gw.rb release/gw.json release/winget/* --title "gw $GITHUB_REF_NAME" --notes-file release/NOTES.md --generate-notes',
  'npm publish "release/gw-${GITHUB_REF_NAME#v}.tgz" --provenance --access public',
]

describe('the GitHub workflows', () => {
  it.each(files)("%s is a workflow GitHub's schema accepts, expressions included", async (file) => {
    const parsed = parseWorkflow({name: file, content: read('.github', 'workflows', file)}, new NoOperationTraceWriter())
    expect(parsed.context.errors.getErrors().map((error) => error.message)).toEqual([])
    const template = await convertWorkflowTemplate(parsed.context, parsed.value!)
    expect(template.errors ?? []).toEqual([])
    expect(template.jobs.length).toBeGreaterThan(0)
  })

  it("rejects, as GitHub would, a workflow with a key it has not or an expression that does not parse (the check can fail)", () => {
    const bad = 'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n    steps:\n      - run: echo ${{ foo( }}\n'
    const parsed = parseWorkflow({name: 'bad.yml', content: bad}, new NoOperationTraceWriter())
    expect(parsed.context.errors.getErrors().map((error) => error.message)).toEqual(["bad.yml (Line: 6, Col: 5): Unexpected value 'stepz'", "bad.yml (Line: 8, Col: 14): Unexpected end of expression: '('"])
  })

  it.each(Object.entries(workflows))("%s uses only GitHub's own actions, and no tabs (YAML has none)", (_name, text) => {
    for (const action of values(text, 'uses')) expect(action).toMatch(/^actions\/(checkout|setup-node|upload-artifact|download-artifact)@v\d+$/)
    expect(text).not.toContain('\t')
  })

  it.each(Object.entries(workflows))('%s runs scripts that are run here, by a test or by .ci/, and nothing else but what only a release can run', (_name, text) => {
    const run = scriptsRun(text)
    expect(run.length).toBeGreaterThan(0)
    const sources = testSources()
    for (const script of run) expect(sources.some((source) => source.includes(script)), `${script} is run by no test`).toBe(true)
    for (const command of values(text, 'run')) expect(/^(npm ci --no-audit --no-fund|npm run package\b|node scripts\/[\w-]+\.js\b)/.test(command) || RELEASE_ONLY.includes(command), command).toBe(true)
  })

  it('ci.yml runs the platform suite on Ubuntu, macOS and Windows with Node 22.19, 24 and 26, and proves gw as installed on each', () => {
    const jobs = jobsOf(workflows.ci)
    expect(jobs['platform-suite']).toContain('os: [ubuntu-latest, macos-latest, windows-latest]')
    expect(jobs['platform-suite']).toContain("node: ['22.19.0', '24', '26']")
    expect(values(jobs['platform-suite']!, 'run')).toEqual(['npm ci --no-audit --no-fund', 'node scripts/platform-suite.js'])
    expect(jobs.installed).toContain('os: [ubuntu-latest, macos-latest, windows-latest]')
    expect(values(jobs.installed!, 'run')).toEqual(['npm ci --no-audit --no-fund', 'npm run package', 'node scripts/prove-release.js', 'node scripts/prove-release.js --npm'])
    // Batches, lists, money safety and the local gateway among the e2e files it runs; every prefix names files.
    expect(PLATFORM_TESTS).toEqual(expect.arrayContaining(['test/unit', 'test/e2e/batch', 'test/e2e/lists', 'test/e2e/money', 'test/e2e/sandbox']))
    const tests = readdirSync(join(root, 'test'), {recursive: true}).map((file) => `test/${String(file)}`)
    for (const prefix of PLATFORM_TESTS) expect(tests.some((file) => file.startsWith(prefix) && file.endsWith('.test.ts')), prefix).toBe(true)
  })

  it('release.yml builds every target, macOS ones on macOS, and proves each on a runner of its own OS and architecture before publishing', () => {
    const jobs = jobsOf(workflows.release)
    const built = Object.values(jobs).map((job) => ({runner: values(job, 'runs-on')[0], targets: values(job, 'run').flatMap((command) => /npm run package -- --target (\S+)/.exec(command)?.[1]?.split(',') ?? [])}))
    expect(built.flatMap(({targets}) => targets).sort()).toEqual([...TARGETS].sort())
    for (const {runner, targets} of built) for (const target of targets) expect(runner, target).toBe(target.startsWith('darwin-') ? 'macos-latest' : 'ubuntu-latest')

    // GitHub's hosted runners: macos-latest is Apple silicon, macos-15-intel x64; the -arm ones arm64.
    const runners = Object.fromEntries([...jobs.prove!.matchAll(/- \{target: ([\w-]+), runner: ([\w.-]+)\}/g)].map(([, target, runner]) => [target, runner]))
    expect(runners).toEqual({'linux-x64': 'ubuntu-latest', 'linux-arm64': 'ubuntu-24.04-arm', 'win-x64': 'windows-latest', 'win-arm64': 'windows-11-arm', 'darwin-arm64': 'macos-latest', 'darwin-x64': 'macos-15-intel'})
    expect(Object.keys(runners).sort()).toEqual([...TARGETS].sort())
    expect(values(jobs.prove!, 'run')).toEqual(['node scripts/prove-release.js --target ${{ matrix.target }}'])

    // SHA256SUMS and the rest are made, and the executables checked, before the proof; nothing is published before it.
    expect(values(jobs['release-files']!, 'needs')).toEqual(['[build-linux-and-windows, build-macos]'])
    expect(values(jobs.prove!, 'needs')).toEqual(['[release-files]'])
    expect(values(jobs.publish!, 'needs')).toEqual(['[prove]'])
    expect(values(jobs['release-files']!, 'run')).toContain('node scripts/release-files.js --tag "$GITHUB_REF_NAME" --repository "$GITHUB_REPOSITORY" --base-url "https://github.com/$GITHUB_REPOSITORY/releases/download/$GITHUB_REF_NAME"')
    expect(values(jobs.publish!, 'run')).toEqual([RELEASE_ONLY[2], RELEASE_ONLY[3], 'node scripts/publish-manifests.js'])
  })

  it("publishes from the repository package.json names (npm's provenance check), and names each secret it uses", () => {
    // release-files.js --repository "$GITHUB_REPOSITORY" refuses a run from any other (test/unit/release/release-files.test.ts).
    expect(repositoryOf()).toBe('gw-cli/gw')
    expect(workflows.release).toMatch(/^permissions:\n {2}contents: write\n {2}id-token: write\n/m)
    const secrets = [...new Set([...workflows.release.matchAll(/\$\{\{ secrets\.(\w+) \}\}/g)].map(([, name]) => name!))].sort()
    expect(secrets).toEqual(['HOMEBREW_TAP_REPOSITORY', 'HOMEBREW_TAP_TOKEN', 'NPM_TOKEN', 'SCOOP_BUCKET_REPOSITORY', 'SCOOP_BUCKET_TOKEN', 'WINDOWS_CERTIFICATE', 'WINDOWS_CERTIFICATE_PASSWORD'])
    for (const secret of secrets) expect(workflows.release.split('\nname:')[0], `${secret} is said in the header`).toContain(secret)
  })
})

// `node scripts/platform-suite.js [--only lint|build|tests] [-- VITEST ARGS]`: what every platform
// and Node line gw supports is checked by: lint, the build, and, on the node running this script,
// the unit tests and the e2e files of batches, lists, money safety, identity and the local
// gateway. .github/workflows/ci.yml runs it on Ubuntu, macOS and Windows with Node 22.19, 24 and
// 26; .ci/suites runs its tests on gw's floor and the newest line. Plain Node, no shell: Windows
// runs it as it is.
import {spawnSync} from 'node:child_process'
import {delimiter, dirname, join} from 'node:path'
import {parseArgs} from 'node:util'
import {npmCli} from './registry-node.js'

const root = join(import.meta.dirname, '..')

/** The test files every platform runs: the unit tests, and the e2e files of these prefixes (vitest takes a path's start). */
export const PLATFORM_TESTS = ['test/unit', 'test/e2e/batch', 'test/e2e/lists', 'test/e2e/money', 'test/e2e/identity', 'test/e2e/sandbox']

const STEPS = {
  lint: () => npmRun('lint'),
  build: () => npmRun('build'),
  tests: (extra) => run(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...PLATFORM_TESTS, ...extra]),
}

if (process.argv[1] === import.meta.filename) {
  const {values, positionals} = parseArgs({options: {only: {type: 'string'}}, allowPositionals: true})
  if (values.only && !(values.only in STEPS)) {
    process.stderr.write(`--only ${values.only}: one of ${Object.keys(STEPS).join(', ')}\n`)
    process.exit(2)
  }
  for (const [name, step] of Object.entries(STEPS)) {
    if (values.only && values.only !== name) continue
    process.stdout.write(`== ${name} on Node ${process.version} (${process.platform}-${process.arch})\n`)
    const status = step(positionals)
    if (status !== 0) process.exit(status ?? 1)
  }
}

function npmRun(script) {
  const cli = npmCli()
  if (!cli) throw new Error(`no npm beside ${process.execPath} to run npm run ${script} with`)
  return run(process.execPath, [cli, 'run', script])
}

/** Runs a step in the clone with this node first on PATH, so that what it starts as `node` is this node too. */
function run(file, args) {
  // Windows spells it Path, and an environment with both would hold two.
  const key = Object.keys(process.env).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH'
  const env = {...process.env, [key]: [dirname(process.execPath), process.env[key]].join(delimiter)}
  return spawnSync(file, args, {cwd: root, stdio: 'inherit', env}).status
}

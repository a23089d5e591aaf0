// CI's last lines: each test that failed (its file, its name, the first line of why), what each
// Node ran, from the vitest JSON reports .ci/suites wrote, then one line for them all. A suite that
// was started and wrote no report counts as one failure.
import fs from 'node:fs'
import {join, relative} from 'node:path'

const say = (line) => process.stdout.write(`${line}\n`)
// Vitest's messages carry colours and the whole diff; the first plain line says what failed.
// eslint-disable-next-line no-control-regex
const firstLine = (text) => (text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300) ?? ''

const dir = process.argv[2]
const total = {passed: 0, failed: 0, skipped: 0}
const lines = []
const started = fs.readdirSync(dir).filter((name) => name.endsWith('.started')).sort()
for (const name of started.map((file) => file.replace(/\.started$/, ''))) {
  const label = `Node ${fs.readFileSync(join(dir, `${name}.started`), 'utf8').trim()}`
  const file = join(dir, `${name}.json`)
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) {
    lines.push(`${label}: wrote no report`)
    total.failed += 1
    continue
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'))
  for (const suite of report.testResults ?? []) {
    const where = relative(process.cwd(), suite.name)
    const failed = (suite.assertionResults ?? []).filter((test) => test.status === 'failed')
    for (const test of failed) say(`FAILED (${label}) ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`)
    // A file that failed outside any test (an import, a hook) has no failed test to name.
    if (failed.length === 0 && suite.status === 'failed') say(`FAILED (${label}) ${where}: ${firstLine(suite.message)}`)
  }
  const counts = {passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests}
  for (const key of Object.keys(total)) total[key] += counts[key]
  lines.push(`${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`)
}
for (const line of lines) say(line)
if (started.length === 0) total.failed += 1
say(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`)
process.exitCode = total.failed > 0 ? 1 : 0

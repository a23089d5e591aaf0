// Runs every benchmark in bench/ (files named *.bench.js), one after another.
// Each compares gw against a baseline measured in the same run and prints ratios, not verdicts.
import {readdirSync, rmSync} from 'node:fs'
import {useRunFolder} from '../scripts/run-folder.js'

const only = process.argv[2]
const all = readdirSync(import.meta.dirname).filter((name) => name.endsWith('.bench.js'))
// `npm run bench list` runs list.bench.js alone, not listen's too; a part of a name picks every match.
const exact = all.filter((name) => name === `${only}.bench.js`)
const files = !only ? all : exact.length > 0 ? exact : all.filter((name) => name.includes(only))
// What the benchmarks make (homes, batches, histories) goes into one folder, removed at the end.
// Searchable by all, as /tmp is: the start-up bench runs a read-only install as nobody from inside it.
const run = useRunFolder('gw-bench-run-', 0o711)
const removeRun = () => rmSync(run, {recursive: true, force: true, maxRetries: 5})
// Ctrl-C or a kill ends a run half-way: what it made goes too.
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) process.once(signal, () => (removeRun(), process.exit(code)))
try {
  for (const file of files.sort()) {
    console.log(`\n# ${file}`)
    const {default: bench} = await import(`./${file}`)
    await bench()
  }
} finally {
  removeRun()
}

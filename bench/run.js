// Runs every benchmark in bench/ (files named *.bench.js), one after another.
// Each compares gw against a baseline measured in the same run and prints ratios, not verdicts.
import {readdirSync} from 'node:fs'

const only = process.argv[2]
const all = readdirSync(import.meta.dirname).filter((name) => name.endsWith('.bench.js'))
// `npm run bench list` runs list.bench.js alone, not listen's too; a part of a name picks every match.
const exact = all.filter((name) => name === `${only}.bench.js`)
const files = !only ? all : exact.length > 0 ? exact : all.filter((name) => name.includes(only))
for (const file of files.sort()) {
  console.log(`\n# ${file}`)
  const {default: bench} = await import(`./${file}`)
  await bench()
}

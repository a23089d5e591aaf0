// Runs every benchmark in bench/ (files named *.bench.js), one after another.
// Each compares gw against a baseline measured in the same run and prints ratios, not verdicts.
import {readdirSync} from 'node:fs'

const only = process.argv[2]
const files = readdirSync(import.meta.dirname).filter((name) => name.endsWith('.bench.js') && (!only || name.includes(only)))
for (const file of files.sort()) {
  console.log(`\n# ${file}`)
  const {default: bench} = await import(`./${file}`)
  await bench()
}

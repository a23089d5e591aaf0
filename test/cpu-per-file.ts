import {appendFileSync, readFileSync} from 'node:fs'
import {afterAll, beforeAll, beforeEach, expect} from 'vitest'

/**
 * With GW_CPU_LOG=FILE (vitest.config.ts), each test file's CPU-seconds are appended to FILE as
 * `SECONDS PATH DIALECT`: its worker's own (gw in threads too) and that of the processes it started
 * and saw end (gw, local gateways, shells). Read from /proc, so Linux only.
 */
const log = process.env.GW_CPU_LOG!
if (process.platform !== 'linux') throw new Error(`GW_CPU_LOG reads /proc/self/stat, which ${process.platform} has not: unset it`)

/** utime, stime, cutime and cstime, in clock ticks of 10 ms (USER_HZ, 100 on Linux). */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100
}

let start = 0
let file = ''
beforeAll(() => {
  start = cpuSeconds()
})
beforeEach(() => {
  file = expect.getState().testPath ?? ''
})
// Registered before the file's own hooks, so run after them (vitest runs after-hooks as a stack): its local gateways have ended.
afterAll(() => appendFileSync(log, `${(cpuSeconds() - start).toFixed(2)} ${file} ${process.env.GW_TEST_DIALECT ?? 'contract'}\n`))

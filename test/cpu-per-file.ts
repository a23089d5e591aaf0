import {appendFileSync, existsSync, readFileSync} from 'node:fs'
import {afterAll, beforeAll, beforeEach, expect} from 'vitest'
import {spawnerPid} from './spawner.js'

/**
 * With GW_CPU_LOG=FILE (vitest.config.ts), each test file's CPU-seconds are appended to FILE as
 * `SECONDS OWN PATH DIALECT`. SECONDS is its worker's own (gw in threads too) and that of the
 * processes it started and saw end (gw, local gateways, shells); OWN is the worker's alone. Read
 * from /proc, so Linux only.
 */
const log = process.env.GW_CPU_LOG!
if (process.platform !== 'linux') throw new Error(`GW_CPU_LOG reads /proc/self/stat, which ${process.platform} has not: unset it`)

/** utime and stime, then cutime and cstime, in clock ticks of 10 ms (USER_HZ, 100 on Linux), as seconds. */
function ticksOf(pid: number | 'self'): number[] {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ').slice(11, 15).map(Number)
}

/** This process's CPU, and with it that of the processes it saw end, and the spawner's (test/spawner.ts), whose programs are its children. */
function cpuSeconds(): {own: number; all: number} {
  const ticks = ticksOf('self')
  const spawner = spawnerPid()
  // A spawner that died was reaped by this process: its CPU is in this process's cutime now.
  const spawned = spawner === undefined || !existsSync(`/proc/${spawner}`) ? 0 : ticksOf(spawner).reduce((sum, each) => sum + each, 0)
  const own = (ticks[0]! + ticks[1]!) / 100
  return {own, all: own + (ticks[2]! + ticks[3]! + spawned) / 100}
}

let start = {own: 0, all: 0}
let file = ''
beforeAll(() => {
  start = cpuSeconds()
})
beforeEach(() => {
  file = expect.getState().testPath ?? ''
})
// Registered before the file's own hooks, so run after them (vitest runs after-hooks as a stack): its local gateways have ended.
afterAll(() => {
  const end = cpuSeconds()
  appendFileSync(log, `${(end.all - start.all).toFixed(2)} ${(end.own - start.own).toFixed(2)} ${file} ${process.env.GW_TEST_DIALECT ?? 'contract'}\n`)
})

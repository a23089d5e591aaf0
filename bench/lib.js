import {execFileSync, spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync} from 'node:fs'
import {loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'

export const GW = join(import.meta.dirname, '..', 'bin', 'run.js')

/**
 * Runs a command once, as `user` ({uid, gid}) when given, and returns its wall time in ms, and
 * with GNU time its peak RSS in KiB and CPU seconds (user + sys, children waited for included).
 */
export function measure(command, args, env, user) {
  const hasTime = spawnSync('/usr/bin/time', ['--version']).status === 0
  const options = {env, encoding: 'utf8', ...user}
  const started = performance.now()
  const result = hasTime ? spawnSync('/usr/bin/time', ['-f', '%U %S %M', command, ...args], options) : spawnSync(command, args, options)
  const ms = performance.now() - started
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`)
  const [userCpu, sysCpu, rss] = hasTime ? result.stderr.trim().split('\n').at(-1).split(' ').map(Number) : [NaN, NaN, NaN]
  return {ms, rss, cpu: userCpu + sysCpu}
}

/** A process's resident set size in KiB, read from Linux's /proc: NaN elsewhere, or once it has ended. */
export function residentKiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1])
  } catch {
    return NaN
  }
}

let ticks

/** Ticks of CPU time a second (getconf CLK_TCK), for /proc's counts: 100 nearly everywhere. Asked once, when first needed. */
function ticksPerSecond() {
  ticks ??= existsSync('/proc/self/stat') ? Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'})) : NaN
  return ticks
}

/**
 * The CPU seconds (user + system) a process has spent so far, from Linux's /proc: NaN elsewhere, or
 * once it has ended. Load from other work stretches a wall time, far less the CPU time of the work.
 */
export function cpuSeconds(pid) {
  try {
    // The fields after the command's name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond()
  } catch {
    return NaN
  }
}

/** A count as a reader reads it: 10,000. */
export const count = (n) => n.toLocaleString('en-US')

/** The machine's load over 1, 5 and 15 minutes, printed beside a rate that follows it (0 0 0 on Windows). */
export function load() {
  return loadavg().map((average) => average.toFixed(2)).join(' ')
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** Starts a server process that prints its URL on stdout; resolves with the URL and the child. */
export async function spawnServer(args, env) {
  const child = spawn(process.execPath, args, {env, stdio: ['ignore', 'pipe', 'inherit']})
  const url = await new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /https?:\/\/\S+/.exec(out)
      if (match) resolve(match[0])
    })
    child.on('exit', (code) => reject(new Error(`${args[0]} exited ${code}`)))
  })
  return {url, child}
}

/** Starts `gw sandbox start --port 0` (with `args`: `--rate-limit 100`) and resolves with its URL, its data folder and a stop function. */
export async function startSandbox(args = []) {
  const home = mkdtempSync(join(tmpdir(), 'gw-bench-'))
  const {url, child} = await spawnServer([GW, 'sandbox', 'start', '--port', '0', ...args], {...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data')})
  return {url, home: join(home, 'config'), data: join(home, 'data'), stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')))}
}

/**
 * The least a script can do with a raw undici Pool of `connections`: read a refunds CSV
 * (transaction_id,amount,reference), send each row, print each answer. Run as
 * `node -e SCRIPT UNDICI FILE URL`, a process of its own, as gw's batch is.
 */
export function refundPoolScript(connections) {
  const authorization = 'Basic ' + Buffer.from('TEST:TEST').toString('base64')
  return `
const {Pool} = require(process.argv[1])
const [, , file, url] = process.argv
const rows = require('node:fs').readFileSync(file, 'utf8').trim().split('\\n').slice(1).map((line) => line.split(','))
const pool = new Pool(url, {connections: ${connections}, pipelining: 1})
let next = 0
const worker = async () => {
  while (next < rows.length) {
    const [transaction_id, amount, reference] = rows[next++]
    const response = await pool.request({path: '/v1.0/refunds', method: 'POST', headers: {authorization: '${authorization}', accept: 'application/json', 'content-type': 'application/json'}, body: JSON.stringify({transaction_id, amount: Number(amount), reference})})
    const envelope = await response.body.json()
    if (!envelope.successful) process.exitCode = 1
    process.stdout.write(JSON.stringify(envelope.response) + '\\n')
  }
}
Promise.all(Array.from({length: ${connections}}, worker)).then(() => pool.close())
`
}

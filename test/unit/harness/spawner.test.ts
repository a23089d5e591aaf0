import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {type ProgramRun, runToEnd, runToEndSync, spawnerPid} from '../../spawner.js'
import {until} from '../../until.js'

const run = (file: string, args: string[], more: Partial<ProgramRun> = {}): ProgramRun => ({file, args, env: {PATH: process.env.PATH}, timeoutMs: 30_000, killSignal: 'SIGKILL', ...more})

// Linux: the last test reads the spawner's children from /proc.
describe.skipIf(process.platform !== 'linux')('the spawner (test/spawner.ts)', () => {
  it('runs a program to its end: its stdin, stdout, stderr and exit code, in a process other than this one', async () => {
    const ended = await runToEnd(run('sh', ['-c', 'cat; echo oops >&2; exit 3'], {stdin: 'héllo\n'}))
    expect(ended).toStrictEqual({code: 3, signal: null, timedOut: false, stdout: Buffer.from('héllo\n'), stderr: Buffer.from('oops\n')})
    expect(spawnerPid()).toBeGreaterThan(0)
    expect(spawnerPid()).not.toBe(process.pid)
  })

  it('gives the program only the environment and folder it is given', async () => {
    const ended = await runToEnd(run('sh', ['-c', 'echo "$ONLY:${HOME:-none}:$(pwd)"'], {env: {PATH: process.env.PATH, ONLY: 'this'}, cwd: '/'}))
    expect(ended.stdout.toString()).toBe('this:none:/\n')
  })

  it('ends a program still running after its bound with the signal asked, and says it timed out', async () => {
    const ended = await runToEnd(run('sleep', ['30'], {timeoutMs: 50, killSignal: 'SIGTERM'}))
    expect(ended).toMatchObject({code: null, signal: 'SIGTERM', timedOut: true})
  })

  it('rejects a program that cannot be started, naming it and why', async () => {
    await expect(runToEnd(run('no-such-program-here', []))).rejects.toThrow(/^no-such-program-here: spawn no-such-program-here ENOENT$/)
  })

  it('runs one synchronously, many in turn, while runs not awaited go on', async () => {
    const waiting = runToEnd(run('sh', ['-c', 'sleep 0.2; echo late']))
    const inTurn = Array.from({length: 5}, (_, index) => runToEndSync(run('echo', [String(index)])).stdout.toString())
    expect(inTurn).toEqual(['0\n', '1\n', '2\n', '3\n', '4\n'])
    expect((await waiting).stdout.toString()).toBe('late\n')
  })

  it('a spawner killed mid-run fails that run saying so, and the next run gets a new spawner', async () => {
    const first = await runToEnd(run('true', []))
    expect(first.code).toBe(0)
    const killed = spawnerPid()!
    const waiting = runToEnd(run('sleep', ['5']))
    // The sleep is started once the spawner has a child.
    await until('the spawner to start the sleep', () => readFileSync(`/proc/${killed}/task/${killed}/children`, 'utf8').trim() !== '', undefined, 20)
    process.kill(killed, 'SIGKILL')
    await expect(waiting).rejects.toThrow(/^sleep: the spawner \(test\/spawner-process.cjs\) ended with SIGKILL$/)
    expect(runToEndSync(run('echo', ['again'])).stdout.toString()).toBe('again\n')
    expect(await until('a new spawner', () => (spawnerPid() === killed ? undefined : spawnerPid()), undefined, 20)).toBeGreaterThan(0)
  })
})

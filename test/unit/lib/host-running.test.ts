import {spawn, spawnSync} from 'node:child_process'
import {copyFileSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it, vi} from 'vitest'
import {hostPlatform, leftByRunning} from '../../../src/lib/platform.js'
import {folder} from './folders.js'
import {onlyOn} from '../../only-on.js'

const isRunning = (pid: number) => hostPlatform().isRunning(pid)

describe('leftByRunning', () => {
  it('is false of this very process (its pid came round again) and of a dead one, true of a running other', () => {
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString())
    expect(leftByRunning(process.pid)).toBe(false)
    expect(leftByRunning(dead)).toBe(false)
    expect(leftByRunning(process.ppid)).toBe(true)
    expect(leftByRunning(process.pid, {isRunning: () => true})).toBe(false)
  })
})

describe("the host's isRunning", () => {
  it('is true of this process and false of one that exited', () => {
    expect(isRunning(process.pid)).toBe(true)
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString())
    expect(isRunning(dead)).toBe(false)
  })

  const PROC = onlyOn(['linux'], 'it reads a zombie in /proc, which only Linux has')
  it.skipIf(PROC.skip)(`is false of a zombie (exited, its parent not told), and true of a process whose name holds ") Z ("${PROC.note}`, async () => {
    const dir = folder()
    const odd = join(dir, 'x) Z (y')
    copyFileSync('/bin/sleep', odd)
    spawnSync('chmod', ['+x', odd])
    // sh starts a child that waits for a line (on stdin kept as fd 3: a background job's own is
    // /dev/null), then becomes sleep, which never reaps it: the child,
    // let go only once sh has become sleep (sh itself would have reaped it), is a zombie.
    const parent = spawn('sh', ['-c', `exec 3<&0; (read _ <&3) & echo $!; exec 3<&-; exec '${odd}' 30`], {stdio: ['pipe', 'pipe', 'ignore']})
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))))
      await expect.poll(() => readFileSync(`/proc/${parent.pid}/stat`, 'utf8')).toContain('(x) Z (y) ')
      expect(isRunning(parent.pid!)).toBe(true)
      parent.stdin.end('\n')
      await expect.poll(() => readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]![0]).toBe('Z')
      expect(isRunning(zombie)).toBe(false)
    } finally {
      parent.kill('SIGKILL')
    }
  })

  it.skipIf(PROC.skip)(`is false of a pid the signal reaches but /proc does not have (gone in between)${PROC.note}`, () => {
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true)
    try {
      expect(isRunning(2_000_000_000)).toBe(false)
    } finally {
      kill.mockRestore()
    }
  })

  it.each([
    ['EPERM', true],
    ['ESRCH', false],
  ])("when the signal is refused with %s: running is %s (another user's process may not be signalled, and runs)", (code, running) => {
    // As root every process may be signalled: the refusal is made here.
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error(`kill ${code}`), {code})
    })
    try {
      expect(isRunning(4242)).toBe(running)
      expect(kill).toHaveBeenCalledWith(4242, 0)
    } finally {
      kill.mockRestore()
    }
  })
})

import {Config} from '@oclif/core'
import {mkdtempSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, win32} from 'node:path'
import {describe, expect, it} from 'vitest'
import {platformOf, stopMeaning} from '../../../src/lib/platform.js'
import type {SystemCalls} from '../../../src/lib/processes.js'

// Each system's habits, the system handed to the platform (design.md §8): what gw does on macOS and
// Windows is checked here on Linux, through the system calls a probe makes.

/** A system of the test's own: files by path, programs by their command line, processes by pid. */
function system({files = {}, programs = {}, processes = {}, owners = {}, uid = 1000}: {files?: Record<string, string>; programs?: Record<string, string>; processes?: Record<number, 'mine' | 'theirs'>; owners?: Record<string, number>; uid?: number | null} = {}): SystemCalls & {ran: string[]} {
  const ran: string[] = []
  return {
    ran,
    readFile: (path) => files[path],
    ownerOf: (path) => owners[path],
    run(file, args) {
      const line = [file, ...args].join(' ')
      ran.push(line)
      return programs[line]
    },
    probe(pid) {
      const whose = processes[pid]
      if (whose === 'mine') return
      throw Object.assign(new Error('kill'), {code: whose === 'theirs' ? 'EPERM' : 'ESRCH'})
    },
    uid: () => uid ?? undefined,
  }
}

const home = () => '/home/jane'

describe('the platform: folders', () => {
  it("are oclif's: XDG on Linux, the cache in ~/Library/Caches on macOS, %LOCALAPPDATA%\\gw for all three on Windows", () => {
    expect(platformOf('linux', system(), home).folders({HOME: '/home/jane'})).toEqual({config: '/home/jane/.config/gw', data: '/home/jane/.local/share/gw', cache: '/home/jane/.cache/gw'})
    expect(platformOf('linux', system(), home).folders({HOME: '/h', XDG_CONFIG_HOME: '/x/c', XDG_DATA_HOME: '/x/d', XDG_CACHE_HOME: '/x/k'})).toEqual({config: '/x/c/gw', data: '/x/d/gw', cache: '/x/k/gw'})
    // macOS: XDG for config and data, never for the cache.
    expect(platformOf('darwin', system(), home).folders({HOME: '/Users/jane', XDG_CACHE_HOME: '/x/k'})).toEqual({config: '/Users/jane/.config/gw', data: '/Users/jane/.local/share/gw', cache: '/Users/jane/Library/Caches/gw'})
    const local = 'C:\\Users\\jane\\AppData\\Local'
    expect(platformOf('win32', system(), home).folders({LOCALAPPDATA: local, USERPROFILE: 'C:\\Users\\jane'})).toEqual({config: `${local}\\gw`, data: `${local}\\gw`, cache: `${local}\\gw`})
    // GW_CONFIG_DIR, GW_DATA_DIR and GW_CACHE_DIR before anything.
    expect(platformOf('darwin', system(), home).folders({GW_CONFIG_DIR: '/c', GW_DATA_DIR: '/d', GW_CACHE_DIR: '/k'})).toEqual({config: '/c', data: '/d', cache: '/k'})
  })

  // What gw help environment and the guides say is what oclif finds: its Config is loaded as each system would load it.
  it.each([
    ['linux', {HOME: '/home/jane'}],
    ['linux', {HOME: '/home/jane', XDG_DATA_HOME: '/srv/data'}],
    ['darwin', {HOME: '/Users/jane', XDG_CACHE_HOME: '/ignored'}],
    ['win32', {LOCALAPPDATA: 'C:\\Users\\jane\\AppData\\Local', USERPROFILE: 'C:\\Users\\jane'}],
    ['win32', {HOMEDRIVE: 'D:', HOMEPATH: '\\jane', XDG_CONFIG_HOME: 'D:\\xdg'}],
  ] as const)('on %s with %o, as oclif computes configDir, dataDir and cacheDir', async (os, env) => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!
    const saved = {...process.env}
    for (const key of ['HOME', 'LOCALAPPDATA', 'USERPROFILE', 'HOMEDRIVE', 'HOMEPATH', 'GW_CONFIG_DIR', 'GW_DATA_DIR', 'GW_CACHE_DIR']) delete process.env[key]
    for (const key of Object.keys(process.env)) if (key.startsWith('XDG_')) delete process.env[key]
    Object.assign(process.env, env)
    Object.defineProperty(process, 'platform', {...platform, value: os})
    let oclif: Config
    try {
      oclif = await Config.load({root: join(import.meta.dirname, '..', '..', '..')})
    } finally {
      Object.defineProperty(process, 'platform', platform)
      // process.env stays the one object Node reads (TZ among it): emptied of this test's values and filled again.
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
      Object.assign(process.env, saved)
    }
    // oclif joins with the separator of the system the test runs on; Windows takes either.
    const windows = (path: string) => (os === 'win32' ? win32.normalize(path) : path)
    expect(platformOf(os, system(), home).folders(env)).toEqual({config: windows(oclif.configDir), data: windows(oclif.dataDir), cache: windows(oclif.cacheDir)})
  })
})

describe('the platform: signals', () => {
  it("stop gw on Ctrl-C, SIGTERM and a hang-up; on Windows Ctrl-Break too, which is SIGTERM's meaning there", () => {
    expect(platformOf('linux').stopSignals).toEqual(['SIGINT', 'SIGTERM', 'SIGHUP'])
    expect(platformOf('darwin').stopSignals).toEqual(['SIGINT', 'SIGTERM', 'SIGHUP'])
    expect(platformOf('win32').stopSignals).toEqual(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'])
    expect(platformOf('linux').serviceSignals).toEqual(['SIGINT', 'SIGTERM'])
    expect(platformOf('win32').serviceSignals).toEqual(['SIGINT', 'SIGTERM', 'SIGBREAK'])
    expect(stopMeaning('SIGBREAK')).toBe('SIGTERM')
    expect(stopMeaning('SIGHUP')).toBe('SIGHUP')
  })

  it('ask a process to stop by a signal everywhere but Windows, whose process.kill is TerminateProcess', () => {
    expect(['linux', 'darwin', 'win32'].map((os) => platformOf(os as NodeJS.Platform).asksBySignal)).toEqual([true, true, false])
  })
})

describe('the platform: hints name each system’s tools', () => {
  it('fuser -v on Linux, lsof on macOS, tasklist and taskkill on Windows; a path with a space quoted for its shell', () => {
    expect(platformOf('linux').hints.whoHolds('/home/jane/.config/gw/config.json.lock')).toBe('fuser -v /home/jane/.config/gw/config.json.lock names it')
    expect(platformOf('linux').hints.whoHolds("/tmp/my gw/it's.lock")).toBe(`fuser -v '/tmp/my gw/it'\\''s.lock' names it`)
    expect(platformOf('darwin').hints.whoHolds('/Users/jane/My Files/j.lock')).toBe("lsof '/Users/jane/My Files/j.lock' names it")
    expect(platformOf('linux').hints.stop(4242)).toBe('kill 4242')
    expect(platformOf('darwin').hints.show(4242)).toBe('ps -o pid,user,lstart,args -p 4242')
    expect(platformOf('win32').hints.stop(4242)).toBe('taskkill /F /PID 4242')
    expect(platformOf('win32').hints.show(4242)).toBe('tasklist /V /FI "PID eq 4242"')
    expect(platformOf('win32').hints.whoHolds('C:\\Users\\Jane Doe\\gw\\config.json.lock')).toBe(
      'tasklist /V /FI "IMAGENAME eq node.exe" lists gw\'s processes (gw.exe for its executable), and Resource Monitor (resmon: CPU, Associated Handles) finds which holds "C:\\Users\\Jane Doe\\gw\\config.json.lock"',
    )
  })
})

describe('the platform: names', () => {
  it('are the ones people know them by', () => {
    expect(['linux', 'darwin', 'win32'].map((os) => platformOf(os as NodeJS.Platform).name)).toEqual(['Linux', 'macOS', 'Windows'])
  })
})

describe('the platform: /proc', () => {
  it('is read on Linux alone: the locks and mounts tables where wine or a compatibility layer shows one elsewhere are not the system’s', () => {
    const files = {'/proc/locks': '1: POSIX  ADVISORY  WRITE 2019 fe:00:2146535 0 EOF\n', '/proc/self/mountinfo': '36 35 98:0 /mnt1 /mnt2 rw - ext3 /dev/root rw\n'}
    expect(platformOf('linux', system({files})).procFile('locks')).toBe(files['/proc/locks'])
    expect(platformOf('linux', system({files})).procFile('self/mountinfo')).toBe(files['/proc/self/mountinfo'])
    for (const os of ['darwin', 'win32', 'freebsd'] as const) {
      expect(platformOf(os, system({files})).procFile('locks'), os).toBeUndefined()
      expect(platformOf(os, system({files})).procFile('self/mountinfo'), os).toBeUndefined()
    }
  })
})

describe('the platform: processes', () => {
  const stat = (state: string, start: number) => `4242 (gw (sand) box) ${state} 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 ${start} 1000 100`

  it('on Linux, from /proc: a zombie is not running; start and command line tell one process from another of its pid', () => {
    const linux = platformOf('linux', system({files: {'/proc/4242/stat': stat('S', 777), '/proc/4242/cmdline': 'node\0/gw/bin/run.js\0sandbox\0start\0', '/proc/sys/kernel/random/boot_id': 'b00t\n', '/proc/self/stat': stat('R', 1)}, processes: {4242: 'mine'}}))
    expect(linux.isRunning(4242)).toBe(true)
    expect(linux.processFacts(4242)).toEqual({started: 'b00t/777', command: 'node /gw/bin/run.js sandbox start'})
    const zombie = platformOf('linux', system({files: {'/proc/4242/stat': stat('Z', 777), '/proc/self/stat': stat('R', 1)}, processes: {4242: 'mine'}}))
    expect(zombie.isRunning(4242)).toBe(false)
    // Gone between the signal and the read; a /proc with no processes in it (not mounted): the signal has the last word.
    expect(platformOf('linux', system({files: {'/proc/self/stat': stat('R', 1)}, processes: {4242: 'mine'}})).isRunning(4242)).toBe(false)
    expect(platformOf('linux', system({processes: {4242: 'mine'}})).isRunning(4242)).toBe(true)
  })

  it("says whose a process is: another user's runs (and /proc may hide it), no pid at or below 0 is ever one process", () => {
    const linux = platformOf('linux', system({processes: {7: 'theirs', 0: 'mine', [-1]: 'mine'}, owners: {'/proc/7': 0}, files: {'/etc/passwd': 'root:x:0:0::/root:/bin/sh\njane:x:1000:1000::/home/jane:/bin/sh\n'}}))
    expect(linux.whoseProcess(7)).toBe('theirs')
    expect(linux.isRunning(7)).toBe(true)
    expect(linux.processOwner(7)).toBe('root')
    expect(linux.whoseProcess(8)).toBe('none')
    for (const pid of [0, -1, 1.5, Number.NaN]) expect(linux.whoseProcess(pid), String(pid)).toBe('none')
  })

  it('on macOS, from ps; never from a /proc, which is not the system’s where one is seen (wine maps the Linux host’s)', () => {
    const calls = system({
      files: {'/proc/4242/stat': stat('Z', 1)},
      programs: {'ps -o lstart= -p 4242': 'Mon Nov 30 10:00:00 2026\n', 'ps -o command= -p 4242': 'node /gw/bin/run.js sandbox start\n', 'ps -o user= -p 4242': 'jane\n', 'id -un 501': 'jane\n'},
      processes: {4242: 'mine'},
      owners: {'/Users/jane/x.json': 501},
      uid: 501,
    })
    const macos = platformOf('darwin', calls)
    expect(macos.isRunning(4242)).toBe(true)
    expect(macos.processFacts(4242)).toEqual({started: 'Mon Nov 30 10:00:00 2026', command: 'node /gw/bin/run.js sandbox start'})
    expect(macos.processOwner(4242)).toBe('jane')
    expect(macos.fileOwner('/Users/jane/x.json')).toBe('jane')
    expect(macos.ownsFile('/Users/jane/x.json')).toBe(true)
    expect(calls.ran.every((line) => line.startsWith('ps ') || line.startsWith('id '))).toBe(true)
  })

  it('on Windows, from CIM through PowerShell, and no /proc even where one is seen (wine)', () => {
    const query = (script: string) => `powershell.exe -NoProfile -NonInteractive -Command $p = Get-CimInstance Win32_Process -Filter 'ProcessId=4242'; if ($p) { ${script} }`
    const calls = system({
      files: {'/proc/4242/stat': stat('Z', 1), '/proc/self/stat': stat('R', 1)},
      programs: {[query("$p.CreationDate.ToUniversalTime().ToString('o'); $p.CommandLine")]: '2026-11-30T10:00:00.1234567Z\r\n"C:\\Program Files\\nodejs\\node.exe" C:\\gw\\bin\\run.js sandbox start\r\n', [query('(Invoke-CimMethod -InputObject $p -MethodName GetOwner).User')]: 'jane\r\n'},
      processes: {4242: 'mine'},
      // Windows has no user ids.
      uid: null,
    })
    const windows = platformOf('win32', calls)
    // Under wine from drive Z:, the Linux host's /proc said a running gateway had stopped.
    expect(windows.isRunning(4242)).toBe(true)
    expect(windows.processFacts(4242)).toEqual({started: '2026-11-30T10:00:00.1234567Z', command: '"C:\\Program Files\\nodejs\\node.exe" C:\\gw\\bin\\run.js sandbox start'})
    expect(windows.processOwner(4242)).toBe('jane')
    expect(windows.fileOwner('C:\\gw\\x.json')).toBeUndefined()
    expect(windows.ownsFile('C:\\gw\\x.json')).toBe(true)
  })
})

describe('the platform: a file at a path, by identity', () => {
  // A file index NTFS gives: a reuse count in the top 16 bits over the record number. Two such, one
  // apart, round to one double.
  const index = 0x1000_0000_0000_1234n
  const stats = (ids: Record<string, {dev: bigint; ino: bigint}>) => (path: string) => ids[path]

  it.each(['linux', 'darwin', 'win32'] as const)('%s: nothing there, or the file by its device and inode, read whole (bigint)', (os) => {
    const platform = platformOf(os, system(), home, stats({'/a': {dev: 7n, ino: index}, '/b': {dev: 7n, ino: index + 1n}}))
    expect(Number(index)).toBe(Number(index + 1n))
    expect(platform.fileAt('/a')).toEqual({exists: true, id: `7:${index}`})
    expect(platform.fileAt('/b')).toEqual({exists: true, id: `7:${index + 1n}`})
    expect(platform.fileAt('/none')).toEqual({exists: false})
  })

  it('Windows: a file index of 0 is none (a file system that keeps none): the file is there, with no identity to tell it by', () => {
    const ids = stats({'/a': {dev: 7n, ino: 0n}})
    expect(platformOf('win32', system(), home, ids).fileAt('/a')).toEqual({exists: true, id: undefined})
    expect(platformOf('linux', system(), home, ids).fileAt('/a')).toEqual({exists: true, id: '7:0'})
  })

  it('asks the system itself by default: a file renamed over another is another file; a removed one is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-platform-'))
    const [file, other] = [join(dir, 'a'), join(dir, 'b')]
    writeFileSync(file, 'a')
    writeFileSync(other, 'b')
    const platform = platformOf(process.platform)
    const before = platform.fileAt(file)
    expect(before).toEqual({exists: true, id: expect.stringMatching(/^\d+:\d+$/)})
    expect(platform.fileAt(file)).toEqual(before)
    renameSync(other, file)
    expect(platform.fileAt(file)).not.toEqual(before)
    rmSync(file)
    expect(platform.fileAt(file)).toEqual({exists: false})
    expect(platform.fileAt(join(file, 'below'))).toEqual({exists: false})
  })
})

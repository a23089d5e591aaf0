import {readFileSync, statSync} from 'node:fs'

// How each system says whether a process runs, when it started, its command line and its owner:
// Linux from /proc, macOS (and the BSDs) from ps, Windows from PowerShell's CIM. Only Linux has
// /proc; a /proc seen elsewhere (wine's Z: drive maps the Linux host's) is not this system's.

/** The system calls a probe makes: tests hand it a system of their own. */
export interface SystemCalls {
  /** A file's text; undefined when it cannot be read. */
  readFile(path: string): string | undefined
  /** The owner's uid of a file; undefined when there is none to read. */
  ownerOf(path: string): number | undefined
  /** A program's stdout; undefined when it fails or is not there. */
  run(file: string, args: readonly string[]): string | undefined
  /** process.kill's signal 0: throws ESRCH for no such process, EPERM for another user's. */
  probe(pid: number): void
  /** This process's user id; undefined where there is none (Windows). */
  uid(): number | undefined
}

export const systemCalls: SystemCalls = {
  readFile(path) {
    try {
      return readFileSync(path, 'utf8')
    } catch {
      return undefined
    }
  },
  ownerOf(path) {
    try {
      return statSync(path).uid
    } catch {
      return undefined
    }
  },
  run(file, args) {
    try {
      // C: the same words and date format whatever the user's language.
      // Loaded when asked: most of gw never runs a program.
      const {execFileSync} = process.getBuiltinModule('node:child_process')
      return execFileSync(file, args, {encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: {...process.env, LC_ALL: 'C'}, timeout: 10_000, windowsHide: true})
    } catch {
      return undefined
    }
  },
  probe: (pid) => void process.kill(pid, 0),
  uid: () => process.getuid?.(),
}

/** What a process is, to tell it from another that got its pid later. */
export interface ProcessFacts {
  /** When it started, as the system says it: equal for one process, never for another of the same pid. */
  started: string
  /** Its command line. */
  command: string
}

export interface ProcessProbe {
  /** Whether the process runs (another user's too): a zombie, killed and not yet reaped, holds nothing and does not. */
  isRunning(pid: number): boolean
  /** Whose the process is: none when it does not run; `theirs`, another user's, when this one may not signal it. */
  whoseProcess(pid: number): 'none' | 'mine' | 'theirs'
  /** Whether a file is this user's own; true where files have no owner to tell (Windows). */
  ownsFile(path: string): boolean
  /** A table the Linux kernel keeps under /proc (`locks`, `self/mountinfo`); undefined on every other system, whatever /proc it may see. */
  procFile(path: 'locks' | 'self/mountinfo'): string | undefined
  /** When the process started and its command line; undefined when it is gone or the system will not say. */
  processFacts(pid: number): ProcessFacts | undefined
  /** The name of the user a process runs as; undefined when the system will not say. */
  processOwner(pid: number): string | undefined
  /** The name of the user who owns a file; undefined where files have no such owner (Windows) or none can be read. */
  fileOwner(path: string): string | undefined
}

export function processProbe(platform: NodeJS.Platform, calls: SystemCalls): ProcessProbe {
  /** Whether a signal reaches the process: 'theirs' for another user's, which runs all the same. */
  const signalled = (pid: number): 'none' | 'mine' | 'theirs' => {
    // 0 and below name process groups, every process of the user at -1: never one process.
    if (!Number.isInteger(pid) || pid <= 0) return 'none'
    try {
      calls.probe(pid)
      return 'mine'
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM' ? 'theirs' : 'none'
    }
  }
  const ownsFile = (path: string) => {
    const uid = calls.uid()
    return uid === undefined || calls.ownerOf(path) === uid
  }
  // The one read of /proc: a platform that is not Linux reads none, whatever /proc it may see.
  const procFile = (path: string) => (platform === 'linux' ? calls.readFile(`/proc/${path}`) : undefined)
  const probe = platform === 'linux' ? linuxProbe(calls, signalled, procFile) : platform === 'win32' ? windowsProbe(calls, signalled) : psProbe(calls, signalled)
  return {...probe, isRunning: (pid) => probe.whoseProcess(pid) !== 'none', ownsFile, procFile}
}

type Signalled = (pid: number) => 'none' | 'mine' | 'theirs'
type SystemProbe = Omit<ProcessProbe, 'isRunning' | 'ownsFile' | 'procFile'>


function linuxProbe(calls: SystemCalls, signalled: Signalled, procFile: (path: string) => string | undefined): SystemProbe {
  /** /proc/PID/stat's fields after the name: "PID (name) STATE PPID ...", the name in parentheses and possibly holding any of them. */
  const statFields = (pid: number) => {
    const stat = procFile(`${pid}/stat`)
    return stat === undefined ? undefined : stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  }
  const userName = (uid: number | undefined) => (uid === undefined ? undefined : passwdName(calls.readFile('/etc/passwd'), uid) ?? `uid ${uid}`)
  return {
    whoseProcess(pid) {
      const reached = signalled(pid)
      // Another user's: /proc may hide it (hidepid), and its state is not needed.
      if (reached !== 'mine') return reached
      const state = statFields(pid)?.[0]
      // None: gone since it was signalled; or a /proc that shows no process (not mounted), where the signal said it runs.
      if (state === undefined) return procFile('self/stat') === undefined ? 'mine' : 'none'
      return state === 'Z' ? 'none' : 'mine'
    },
    processFacts(pid) {
      // The 22nd field, starttime, in clock ticks since the machine started: with the boot's id, one process's alone.
      const ticks = statFields(pid)?.[19]
      const boot = procFile('sys/kernel/random/boot_id')?.trim() ?? ''
      const command = procFile(`${pid}/cmdline`)
      if (ticks === undefined || command === undefined) return undefined
      return {started: `${boot}/${ticks}`, command: command.split('\0').filter(Boolean).join(' ')}
    },
    processOwner: (pid) => userName(calls.ownerOf(`/proc/${pid}`)), // linuxProbe runs on the linux platform alone
    fileOwner: (path) => userName(calls.ownerOf(path)),
  }
}

/** The user of this uid in a passwd file's text. */
function passwdName(passwd: string | undefined, uid: number): string | undefined {
  for (const line of (passwd ?? '').split('\n')) {
    const [name, , id] = line.split(':')
    if (name && Number(id) === uid && id !== '') return name
  }
  return undefined
}

/** macOS and the BSDs: ps says what /proc would. */
function psProbe(calls: SystemCalls, signalled: Signalled): SystemProbe {
  const ps = (field: string, pid: number) => calls.run('ps', ['-o', `${field}=`, '-p', String(pid)])?.trim() || undefined
  return {
    // A zombie counts as running here: ps for each look (a stop polls) costs more than the rare zombie, whose parent is a test.
    whoseProcess: signalled,
    processFacts(pid) {
      const started = ps('lstart', pid)
      const command = ps('command', pid)
      return started === undefined || command === undefined ? undefined : {started, command}
    },
    processOwner: (pid) => ps('user', pid),
    fileOwner(path) {
      const uid = calls.ownerOf(path)
      return uid === undefined ? undefined : (calls.run('id', ['-un', String(uid)])?.trim() ?? `uid ${uid}`)
    },
  }
}

/** Windows: CIM's Win32_Process, through PowerShell (wmic is gone from Windows 11). */
function windowsProbe(calls: SystemCalls, signalled: Signalled): SystemProbe {
  const cim = (pid: number, script: string) =>
    calls.run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', `$p = Get-CimInstance Win32_Process -Filter 'ProcessId=${pid}'; if ($p) { ${script} }`])
  return {
    whoseProcess: signalled,
    processFacts(pid) {
      const lines = cim(pid, "$p.CreationDate.ToUniversalTime().ToString('o'); $p.CommandLine")?.split(/\r?\n/)
      const [started, command] = lines ?? []
      return started ? {started, command: command ?? ''} : undefined
    },
    processOwner: (pid) => cim(pid, "(Invoke-CimMethod -InputObject $p -MethodName GetOwner).User")?.trim() || undefined,
    // Node's stat gives no owner on Windows: a file's owner there is its ACL's.
    fileOwner: () => undefined,
  }
}

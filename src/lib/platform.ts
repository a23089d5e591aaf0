import {statSync} from 'node:fs'
import {homedir} from 'node:os'
import {posix, win32} from 'node:path'
import {type ProcessProbe, processProbe, type SystemCalls, systemCalls} from './processes.js'

// What gw does differently on each system it runs on, in one place (design.md §8): its folders,
// the signals that ask it to stop, how a process is told apart and stopped, which tools a hint
// names, and whether file names fold case. Everything else asks this module (through the Factory,
// for commands) instead of looking at process.platform, so that a test can hand it another system.

/** The three systems gw knows the habits of; any other (FreeBSD, AIX) keeps Linux's, less /proc. */
export type Os = 'linux' | 'darwin' | 'win32'

/** A signal that asks gw to stop. */
export type StopSignalName = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'SIGBREAK'

export interface Folders {
  /** Profiles, the token file, the signing secret. */
  config: string
  /** Local gateways' runtime files, logs and request logs; batch journals; the record of refunds made. */
  data: string
  /** What gw cannot keep beside itself: V8's code cache, the saved help. */
  cache: string
}

export interface Hints {
  /** How to find the process that holds a file open, as a clause: `fuser -v FILE names it`. */
  whoHolds(path: string): string
  /** A command that shows what a process is. */
  show(pid: number): string
  /** A command that ends a process. */
  stop(pid: number): string
}

/** The file at a path, as the system tells files apart: nothing there, or a file and its identity (undefined where the system keeps none). */
export type FileAt = {exists: false} | {exists: true; id: string | undefined}

/** A file's device and inode as the system gives them (bigints); undefined when nothing is at the path (ENOENT, ENOTDIR); throws the system's other errors. */
export type StatIds = (path: string) => {dev: bigint; ino: bigint} | undefined

const statIds: StatIds = (path) => statSync(path, {bigint: true, throwIfNoEntry: false})

export interface Platform extends ProcessProbe {
  readonly os: NodeJS.Platform
  /** A name for people: Linux, macOS, Windows. */
  readonly name: string
  /**
   * The signals that ask gw to stop: Ctrl-C (SIGINT), a hang-up, SIGTERM; on Windows Ctrl-Break
   * (SIGBREAK) too, which is what Windows has for SIGTERM.
   */
  readonly stopSignals: readonly StopSignalName[]
  /** What stops a service (gw listen, a local gateway in the foreground): Ctrl-C and SIGTERM, and Ctrl-Break on Windows; a hang-up ends one as it ends any program. */
  readonly serviceSignals: readonly StopSignalName[]
  /**
   * Whether another process can ask a process to stop by a signal. Windows has none to send:
   * Node's process.kill there is TerminateProcess, an end without a word, whatever the signal's name.
   */
  readonly asksBySignal: boolean
  /** gw's folders, as oclif's Config finds them (GW_CONFIG_DIR... first), in this environment. */
  folders(env: NodeJS.ProcessEnv): Folders
  readonly hints: Hints
  /**
   * The file at `path` now, told apart from every other by its device and inode (design.md §5: a
   * file is its inode): on Windows the volume's serial number and the file index, whose 64 bits
   * (NTFS's record number under a reuse count) a double would round together, so read as bigints.
   * Windows gives an index of 0 where the file system keeps none: no identity. Throws what the
   * system says when it cannot look (EACCES).
   */
  fileAt(path: string): FileAt
}

/** What a stop signal means to gw: Ctrl-Break is Windows' SIGTERM. */
export function stopMeaning(signal: StopSignalName): 'SIGINT' | 'SIGTERM' | 'SIGHUP' {
  return signal === 'SIGBREAK' ? 'SIGTERM' : signal
}

const POSIX_SIGNALS: readonly StopSignalName[] = ['SIGINT', 'SIGTERM', 'SIGHUP']
const WINDOWS_SIGNALS: readonly StopSignalName[] = [...POSIX_SIGNALS, 'SIGBREAK']
const POSIX_SERVICE_SIGNALS: readonly StopSignalName[] = ['SIGINT', 'SIGTERM']
const WINDOWS_SERVICE_SIGNALS: readonly StopSignalName[] = [...POSIX_SERVICE_SIGNALS, 'SIGBREAK']

/**
 * The platform of this name. `calls` are the system calls its process probe makes, and `stat` how
 * it reads a file's identity (tests hand it a system of their own); `home` is the home folder when
 * the environment names none.
 */
export function platformOf(os: NodeJS.Platform, calls: SystemCalls = systemCalls, home: () => string = homedir, stat: StatIds = statIds): Platform {
  const windows = os === 'win32'
  return {
    os,
    name: windows ? 'Windows' : os === 'darwin' ? 'macOS' : os === 'linux' ? 'Linux' : os,
    stopSignals: windows ? WINDOWS_SIGNALS : POSIX_SIGNALS,
    serviceSignals: windows ? WINDOWS_SERVICE_SIGNALS : POSIX_SERVICE_SIGNALS,
    asksBySignal: !windows,
    folders: (env) => gwFolders(os, env, home),
    hints: windows ? windowsHints : os === 'linux' ? linuxHints : otherHints,
    fileAt(path) {
      const ids = stat(path)
      if (!ids) return {exists: false}
      return {exists: true, id: windows && ids.ino === 0n ? undefined : `${ids.dev}:${ids.ino}`}
    },
    ...processProbe(os, calls),
  }
}

let host: Platform | undefined

/** The system gw runs on. */
export function hostPlatform(): Platform {
  host ??= platformOf(process.platform)
  return host
}

/**
 * Whether the process that left something naming `pid` (a lock, a folder) may still run. This
 * process's own pid names a dead one's: the pid came round again.
 */
export function leftByRunning(pid: number, platform: Pick<Platform, 'isRunning'> = hostPlatform()): boolean {
  return pid !== process.pid && platform.isRunning(pid)
}

/**
 * gw's folders as oclif's Config computes configDir, dataDir and cacheDir (config.js `dir`,
 * `macosCacheDir`): GW_CONFIG_DIR, GW_DATA_DIR and GW_CACHE_DIR first; then XDG_CONFIG_HOME,
 * XDG_DATA_HOME and XDG_CACHE_HOME, on every system (but for the cache on macOS, which is always
 * ~/Library/Caches/gw); then %LOCALAPPDATA%\gw on Windows, for all three alike; else ~/.config/gw,
 * ~/.local/share/gw and ~/.cache/gw.
 */
function gwFolders(os: NodeJS.Platform, env: NodeJS.ProcessEnv, home: () => string): Folders {
  const {join} = os === 'win32' ? win32 : posix
  const windowsHome = () => (env.HOMEDRIVE && env.HOMEPATH ? join(env.HOMEDRIVE, env.HOMEPATH) : env.USERPROFILE)
  const homeDir = () => env.HOME || (os === 'win32' && windowsHome()) || home()
  const dir = (category: 'config' | 'data' | 'cache') =>
    join(env[`XDG_${category.toUpperCase()}_HOME`] || (os === 'win32' && env.LOCALAPPDATA) || join(homeDir(), category === 'data' ? '.local/share' : `.${category}`), 'gw')
  return {
    config: env.GW_CONFIG_DIR || dir('config'),
    data: env.GW_DATA_DIR || dir('data'),
    cache: env.GW_CACHE_DIR || (os === 'darwin' ? join(homeDir(), 'Library', 'Caches', 'gw') : dir('cache')),
  }
}

/** A word a POSIX shell takes as it is: quoted when it holds anything the shell would read. */
const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`)
/** A word cmd and PowerShell take as it is. */
const windowsWord = (text: string) => (/^[\w@%+=:,.\\/-]+$/.test(text) ? text : `"${text}"`)

const linuxHints: Hints = {
  whoHolds: (path) => `fuser -v ${shellWord(path)} names it`,
  show: (pid) => `ps -o pid,user,lstart,args -p ${pid}`,
  stop: (pid) => `kill ${pid}`,
}

/** macOS has no fuser -v; lsof names a file's holders there (and on the BSDs). */
const otherHints: Hints = {...linuxHints, whoHolds: (path) => `lsof ${shellWord(path)} names it`}

/**
 * Windows names no holder of a file on its command line: tasklist lists gw's processes (Node's,
 * or gw.exe), and Resource Monitor finds the file's holder. taskkill without /F asks a window to
 * close, which a console program never hears.
 */
const windowsHints: Hints = {
  whoHolds: (path) => `tasklist /V /FI "IMAGENAME eq node.exe" lists gw's processes (gw.exe for its executable), and Resource Monitor (resmon: CPU, Associated Handles) finds which holds ${windowsWord(path)}`,
  show: (pid) => `tasklist /V /FI "PID eq ${pid}"`,
  stop: (pid) => `taskkill /F /PID ${pid}`,
}

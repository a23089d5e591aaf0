import {dirname, join} from 'node:path'
import {UsageError, WriteError} from '../errors.js'
import {checkOwnPath, keepPrivate, NotYoursError, readOwnFile} from '../lib/own-file.js'
import {hostPlatform} from '../lib/platform.js'

export type Environment = 'sandbox' | 'live'

/** Where a profile's token is kept: the OS keychain, or a 0600 file when the user asked for that (--insecure-storage). */
export type TokenStorage = 'keychain' | 'file'

/** Where API tokens live. Only this interface is used elsewhere, so where a token lives is one decision. */
export interface TokenStore {
  /** Says where, for gw status and warnings: the keychain entry or the file's path. */
  readonly location: string
  get(profile: string): Promise<string | undefined>
  set(profile: string, token: string): Promise<void>
  delete(profile: string): Promise<void>
}

export interface Profile {
  environment: Environment
  baseUrl: string
  username: string
  readOnly?: boolean
  tokenStorage?: TokenStorage
  /**
   * The local gateway's demo merchant TEST has the published token TEST: not a secret, so it lives
   * here and the quick start works on a machine with no keychain. Only the local profile has one.
   */
  publicToken?: string
}

/** config.json in oclif's configDir: profiles and which one is active. Never a secret. */
export interface Config {
  activeProfile?: string
  profiles: Record<string, Profile>
}

export const configFile = (configDir: string) => join(configDir, 'config.json')

export async function loadConfig(configDir: string): Promise<Config> {
  const path = configFile(configDir)
  // Read at once: a small local file, and fs/promises would start libuv's thread pool for it (~5% of a gw purchase get).
  // Only the user's own (lib/own-file.ts): a config folder another user made first would send the token where they chose.
  const text = readOwnFile(path)
  if (text === undefined) return {profiles: {}}
  try {
    const parsed = JSON.parse(text) as Partial<Config>
    return {activeProfile: parsed.activeProfile, profiles: parsed.profiles ?? {}}
  } catch {
    throw new UsageError(`${path} is not valid JSON`, 'Fix or remove the file; gw sandbox start writes a fresh local profile.')
  }
}

/**
 * Reads config.json, changes it and writes it back with no other gw in between: two gw at once
 * (two local gateways started together, a login beside a profile use) each keep their change.
 */
export async function changeConfig<T>(configDir: string, change: (config: Config) => T | Promise<T>): Promise<T> {
  return underLock(configFile(configDir), async () => {
    const config = await loadConfig(configDir)
    const result = await change(config)
    await saveConfig(configDir, config)
    return result
  })
}

/** How long a change waits for another gw's change of the same file: each takes milliseconds, so this is a gw stopped mid-change. */
const LOCK_WAIT_MS = 10_000
const LOCK_POLL_MS = 20

/** The lock of a file gw changes (config.json, its token file): a small database beside it, whose kernel lock is held while one gw changes it. */
export const lockOf = (path: string) => `${path}.lock.sqlite`

/**
 * Runs `work` (a read, change and write of `path`) while this gw holds the file's lock, waiting
 * while another gw holds it. The lock is not on the file itself, which each save replaces by a
 * rename, but on a database beside it that stays: the kernel's lock on that file (lib/locked-
 * database.ts), which names no folder under TMPDIR and dies with its process, so none is ever
 * left behind to clear. Beside the real file, so a symlink to it finds the same lock; a file with
 * other names (hard links) is refused, since a lock beside one name is not seen from another.
 */
export async function underLock<T>(path: string, work: () => Promise<T>, {waitMs = LOCK_WAIT_MS}: {waitMs?: number} = {}): Promise<T> {
  const [{DatabaseLockedError, NotADatabaseError, openLockedDatabase}, {fileIdentity}] = await Promise.all([import('../lib/locked-database.js'), import('../lib/file-identity.js')])
  const {mkdir} = await import('node:fs/promises')
  await mkdir(dirname(path), {recursive: true, mode: 0o700})
  // The folder (and its lock beside the file) the user's own; the file itself is checked by whoever reads it.
  checkOwnPath(dirname(path))
  const identity = fileIdentity(path)
  if (identity.links > 1) {
    throw new WriteError(`${path} has ${identity.links} names (hard links): gw changes its settings only in a file of its own`, undefined, {hint: `Copy it to a file of its own: cp ${path} ${path}.copy && mv ${path}.copy ${path}`})
  }
  const lockPath = lockOf(identity.path)
  const started = Date.now()
  for (;;) {
    let lock
    try {
      lock = openLockedDatabase(lockPath)
    } catch (err) {
      if (err instanceof NotADatabaseError) {
        throw new WriteError(`${path} cannot be changed: its lock ${lockPath} is not gw's (${err.reason})`, err, {hint: `Remove ${lockPath}: gw makes its lock again.`})
      }
      if (err instanceof NotYoursError) throw err
      if (!(err instanceof DatabaseLockedError)) {
        const code = (err as NodeJS.ErrnoException).code ?? String(err)
        throw new WriteError(`${path} cannot be changed: its lock ${lockPath} cannot be made (${code})`, err, {hint: `Check that ${dirname(lockPath)} is writable and has free space.`})
      }
      // This gw's own other change (err.pid is ours) is waited for like another gw's: it too ends in milliseconds.
      if (Date.now() - started >= waitMs) throw lockHeld(path, lockPath, err)
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS))
      continue
    }
    try {
      return await work()
    } finally {
      lock.close()
    }
  }
}

/** The lock was held past the wait: by whom, and how to clear it (it goes with its process: there is no file to remove). */
function lockHeld(path: string, lockPath: string, err: {pid?: number}): WriteError {
  const {pid} = err
  const holder = pid === undefined ? '' : ` by pid ${pid}`
  const {hints} = hostPlatform()
  const stop = pid === undefined ? `stop the gw that holds it (${hints.whoHolds(lockPath)})` : `stop it (${hints.stop(pid)})`
  return new WriteError(`${path} cannot be changed: its lock ${lockPath} is held${holder}`, err, {
    hint: `Another gw is changing it: run this again when it has finished, or ${stop}. The lock goes with its process: there is nothing to remove.`,
  })
}

export async function saveConfig(configDir: string, config: Config): Promise<void> {
  await writePrivateFile(configFile(configDir), JSON.stringify(config, null, 2) + '\n')
}

/**
 * Writes atomically with mode 0600, so a crash never leaves half a file and no one else can read
 * it: a new file of a name no one had (O_EXCL, so never another user's file or link), renamed
 * over the old in a folder that is the user's alone (checkOwnPath).
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const [{mkdir, rename, rm, writeFile}, {randomBytes}] = await Promise.all([import('node:fs/promises'), import('node:crypto')])
  const dir = join(path, '..')
  await mkdir(dir, {recursive: true, mode: 0o700})
  checkOwnPath(dir)
  // gw's config folder, the user's alone: one made 0755 (by hand, or a umask of 022) is made 0700.
  keepPrivate(dir)
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`
  try {
    await writeFile(temp, text, {mode: 0o600, flag: 'wx'})
    await rename(temp, path)
  } catch (err) {
    await rm(temp, {force: true})
    throw err
  }
}

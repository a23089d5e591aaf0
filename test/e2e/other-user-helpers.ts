import {spawnSync} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {chmodSync, mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect} from 'vitest'
import {runProgram} from './helpers.js'

// A second user of this machine, made by the test (useradd), who acts as itself in a folder both can
// write (a sticky one, as /tmp is): an attacker on the same machine. Making one needs root, as CI runs;
// elsewhere the tests that need one skip, saying why.

export interface OtherUser {
  name: string
  uid: number
  gid: number
}

/** A second user, or why there can be none here. */
export function makeOtherUser(): OtherUser | {reason: string} {
  if (process.getuid?.() !== 0) return {reason: 'they need root to make a second user (useradd) and act as it; CI runs as root'}
  const name = `gwother${randomBytes(3).toString('hex')}`
  const made = spawnSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', name], {encoding: 'utf8'})
  if (made.error || made.status !== 0) return {reason: `useradd could not make a second user (${made.error?.message ?? made.stderr.trim()})`}
  const id = (flag: string) => Number(spawnSync('id', [flag, name], {encoding: 'utf8'}).stdout)
  return {name, uid: id('-u'), gid: id('-g')}
}

export function removeOtherUser(user: OtherUser | {reason: string}): void {
  if (!('reason' in user)) spawnSync('userdel', [user.name])
}

/** A folder anyone may make files in, none remove another's: as /tmp is. */
export function stickyFolder(): string {
  const shared = mkdtempSync(join(tmpdir(), 'gw-shared-'))
  chmodSync(shared, 0o1777)
  return shared
}

/** Runs a shell script as the other user, in `cwd`; it must succeed. */
export async function asOther(user: OtherUser, cwd: string, script: string): Promise<void> {
  const result = await runProgram('/bin/sh', ['-c', script], {uid: user.uid, gid: user.gid, cwd, env: {}})
  expect(result.code, result.stderr).toBe(0)
}

/** The first line gw prints of another user's file: `PATH belongs to NAME (uid N), not to you (root (uid 0))...`. */
export function belongsTo(user: OtherUser, path: string): string {
  return `${path} belongs to ${user.name} (uid ${user.uid}), not to you (root (uid 0)): gw uses only what is your own (or root's), as ssh does`
}

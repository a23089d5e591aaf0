import {type ChildProcess, spawn, spawnSync} from 'node:child_process'
import {readdirSync, readlinkSync} from 'node:fs'
import {afterEach} from 'vitest'
import {afterThisTest} from './after-each-test.js'

// Another process holding a SQLite file (a journal, a lock) by the kernel's lock, as another gw would.

/** Another process holding the database at `path` until it is killed (each test's end kills it): resolves with it once it holds it. */
export async function heldByAnother(path: string): Promise<ChildProcess> {
  const script = `const {DatabaseSync} = require('node:sqlite'); const db = new DatabaseSync(process.argv[1]); db.exec('PRAGMA locking_mode = EXCLUSIVE'); db.exec('BEGIN EXCLUSIVE'); db.exec('COMMIT'); process.stdout.write('held\\n'); setInterval(() => {}, 1000)`
  const child = spawn(process.execPath, ['--no-warnings', '-e', script, path], {stdio: ['ignore', 'pipe', 'inherit']})
  afterThisTest(() => child.kill('SIGKILL'))
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => resolve())
    child.on('exit', (code) => reject(new Error(`the holder exited with ${code}`)))
  })
  return child
}

/** Kills a holder with SIGKILL, as kill -9 would, and resolves once it is gone. */
export async function killHolder(child: ChildProcess): Promise<void> {
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGKILL')
  await gone
}

/** Whether another process could take the database's lock now: it tries, and lets it go. */
export function anotherCouldTake(path: string): boolean {
  const script = `const {DatabaseSync} = require('node:sqlite'); const db = new DatabaseSync(process.argv[1]); try { db.exec('BEGIN EXCLUSIVE'); db.exec('COMMIT'); console.log('took') } catch (e) { console.log(e.errcode) }`
  const result = spawnSync(process.execPath, ['--no-warnings', '-e', script, path], {encoding: 'utf8'})
  return result.stdout.trim() === 'took'
}

/** `open`, each file it opens closed again once the test ends (its lock given back). */
export function closedAfterEach<T extends {close(): void}>(open: (path: string) => T): (path: string) => T {
  const opened: T[] = []
  afterEach(() => {
    for (const file of opened.splice(0)) file.close()
  })
  return (path) => {
    const file = open(path)
    opened.push(file)
    return file
  }
}

/** How many descriptors this process has open on the file (Linux's /proc/self/fd). */
export function openDescriptors(file: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file
    } catch {
      // Closed since the folder was read: the readdir's own descriptor, for one.
      return false
    }
  }).length
}

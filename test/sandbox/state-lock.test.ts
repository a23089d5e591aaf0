import {chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {call, purchase, sandbox} from './helpers.js'

// The state file's lock is the system's, on the file itself: nothing under TMPDIR has a say.
const root = process.getuid?.() === 0
const NOBODY = 65534

const environment = process.env.TMPDIR
afterEach(() => {
  if (environment === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = environment
})

describe('a --state gateway and the temporary folder', () => {
  it(`starts, and keeps its state, when another user made a lock folder there (TMPDIR/gw-locks-UID, open to all${root ? ', theirs' : ''})`, async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'state.json')
    const planted = mkdtempSync(join(tmpdir(), 'gw-planted-'))
    const folder = join(planted, `gw-locks-${process.getuid?.() ?? 0}`)
    mkdirSync(folder)
    chmodSync(folder, 0o777)
    if (root) chownSync(folder, NOBODY, NOBODY)
    process.env.TMPDIR = planted

    const first = await sandbox({stateFile})
    const made = (await purchase(first, {reference: 'despite-the-folder'})).body.response
    await first.close()
    const second = await sandbox({stateFile})
    expect((await call(second, 'GET', '/v1.0/purchases/despite-the-folder')).body.response).toStrictEqual(made)
    expect(readdirSync(folder)).toEqual([])
  })
})

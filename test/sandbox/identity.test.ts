import {linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {loadStore, writeSnapshot} from '../../src/sandbox/persist.js'
import {call, purchase, sandbox} from './helpers.js'

// Issue 27: the local gateway's state file is its real file, and each run of its data has a name.
const folder = () => realpathSync(mkdtempSync(join(tmpdir(), 'gw-sandbox-id-')))
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('X-Sandbox-Instance: which run of its data answers', () => {
  it('is on every answer, refusals and control answers too, and the same for the whole run', async () => {
    const gateway = await sandbox()
    const answers = [
      await purchase(gateway),
      await call(gateway, 'GET', '/v1.0/purchases/no-such-reference'),
      await call(gateway, 'GET', '/v1.0/purchases', {auth: null}),
      await call(gateway, 'GET', '/_sandbox/clock', {auth: null}),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 401, 200])
    const instance = answers[0]!.headers.get('x-sandbox-instance')
    expect(instance).toMatch(UUID)
    expect(answers.map((answer) => answer.headers.get('x-sandbox-instance'))).toEqual([instance, instance, instance, instance])
  })

  it('is new for each start in memory, and for a reset', async () => {
    const first = await sandbox()
    const second = await sandbox()
    const instance = (await call(first, 'GET', '/_sandbox/clock', {auth: null})).headers.get('x-sandbox-instance')
    expect((await call(second, 'GET', '/_sandbox/clock', {auth: null})).headers.get('x-sandbox-instance')).not.toBe(instance)
    await call(first, 'POST', '/_sandbox/reset', {auth: null})
    const reset = (await call(first, 'GET', '/_sandbox/clock', {auth: null})).headers.get('x-sandbox-instance')
    expect(reset).toMatch(UUID)
    expect(reset).not.toBe(instance)
  })

  it('is kept in the --state file: a restart on it is the same run, and a reset journaled there stays the new one', async () => {
    const stateFile = join(folder(), 'state.json')
    const first = await sandbox({stateFile})
    const instance = (await purchase(first)).headers.get('x-sandbox-instance')
    await first.close()
    expect(loadStore(stateFile).instance).toBe(instance)
    const second = await sandbox({stateFile})
    expect((await call(second, 'GET', '/_sandbox/clock', {auth: null})).headers.get('x-sandbox-instance')).toBe(instance)
    await call(second, 'POST', '/_sandbox/reset', {auth: null})
    const reset = (await call(second, 'GET', '/_sandbox/clock', {auth: null})).headers.get('x-sandbox-instance')
    // Killed here, the journal line of the reset is what a restart reads.
    expect(loadStore(stateFile).instance).toBe(reset)
  })

  it('names the data of a state file written before instances, and keeps that name', async () => {
    const stateFile = join(folder(), 'state.json')
    writeFileSync(stateFile, JSON.stringify({version: 2, snapshot: {merchants: {}}}) + '\n')
    const gateway = await sandbox({stateFile})
    const instance = (await call(gateway, 'GET', '/_sandbox/clock', {auth: null})).headers.get('x-sandbox-instance')
    expect(instance).toMatch(UUID)
    expect(loadStore(stateFile).instance).toBe(instance)
  })
})

describe('the state file is its real file', () => {
  it('written through a symlink, replaces the file it leads to, in its own folder, and leaves the link a link', async () => {
    const dir = folder()
    const real = join(dir, 'real')
    mkdirSync(real)
    symlinkSync(join(real, 'state.json'), join(dir, 'state.json'))
    const gateway = await sandbox({stateFile: join(dir, 'state.json')})
    const created = (await purchase(gateway, {reference: 'through-a-link'})).body.response
    await gateway.close()
    expect(lstatSync(join(dir, 'state.json')).isSymbolicLink()).toBe(true)
    expect(readlinkSync(join(dir, 'state.json'))).toBe(join(real, 'state.json'))
    expect(loadStore(join(real, 'state.json')).find('purchases', 'TEST', 'through-a-link')).toMatchObject({found: 'own', record: {id: created.id}})
    // No temporary file was left beside the link, nor beside the file.
    expect(readdirSync(dir).sort()).toEqual(['real', 'state.json'])
    expect(readdirSync(real)).toEqual(['state.json'])
  })

  it('writeSnapshot through a dangling symlink makes the file it names, and keeps the link', async () => {
    const dir = folder()
    symlinkSync('made-later.json', join(dir, 'state.json'))
    await writeSnapshot(join(dir, 'state.json'), {merchants: {}, instance: 'run-1'})
    expect(lstatSync(join(dir, 'state.json')).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(join(dir, 'made-later.json'), 'utf8'))).toEqual({version: 2, snapshot: {merchants: {}, instance: 'run-1'}})
  })

  it('refuses a second gateway on it through a symlink, naming the real file', async () => {
    const dir = folder()
    const file = join(dir, 'state.json')
    await sandbox({stateFile: file})
    symlinkSync(file, join(dir, 'link.json'))
    await expect(sandbox({stateFile: join(dir, 'link.json')})).rejects.toMatchObject({
      name: 'StateFileError',
      message: `${join(dir, 'link.json')} (the same file as ${file}) is in use by another local gateway in this process: two gateways on one state file would lose each other's writes`,
    })
  })

  it('refuses a state file with another name (a hard link), by either name, naming how many', async () => {
    const dir = folder()
    const file = join(dir, 'state.json')
    writeFileSync(file, JSON.stringify({version: 2, snapshot: {merchants: {}}}) + '\n')
    linkSync(file, join(dir, 'copy.json'))
    for (const name of [file, join(dir, 'copy.json')]) {
      await expect(sandbox({stateFile: name})).rejects.toMatchObject({
        name: 'StateFileError',
        message: `${name} has 2 names (hard links): each start and clean stop of the gateway replaces its state file whole, which would leave the other names holding an old copy, and a gateway started on another name would not be seen`,
        hint: 'Give --state a file with one name: remove the other names, or copy the file (cp) and use the copy.',
      })
    }
    // Refused before anything was written: both names still hold the one file.
    expect(lstatSync(file).nlink).toBe(2)
  })
})

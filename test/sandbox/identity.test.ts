import {linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {call, purchase, sandbox} from './helpers.js'
import {copyOnDisk, stateIn, stateOnDisk} from './state-file.js'

// Identity, not names (design.md §5): the local gateway's state file is its real file, and each run of its data has a name.
const folder = () => realpathSync(mkdtempSync(join(tmpdir(), 'gw-sandbox-id-')))

/** `<run>.<changes>`: the run of the data and how many changes it has had. */
const NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d+)$/
const nameOf = (answer: {headers: Headers}) => answer.headers.get('x-sandbox-instance')!
const runOf = (name: string) => NAME.exec(name)![1]!
const changesOf = (name: string) => Number(NAME.exec(name)![2])
const held = async (gateway: Awaited<ReturnType<typeof sandbox>>) => (await call(gateway, 'GET', '/_sandbox/instance', {auth: null})).body.response as {instance: string; runs: {id: string; until: number}[]}

describe('X-Sandbox-Instance: what the data is, by what it holds', () => {
  it('is on every answer, refusals and control answers too: one run, its count of changes after the request’s own', async () => {
    const gateway = await sandbox()
    const before = nameOf(await call(gateway, 'GET', '/_sandbox/clock', {auth: null}))
    const answers = [
      await purchase(gateway),
      await call(gateway, 'GET', '/v1.0/purchases/no-such-reference'),
      await call(gateway, 'GET', '/v1.0/purchases', {auth: null}),
      await call(gateway, 'GET', '/_sandbox/clock', {auth: null}),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 401, 200])
    const names = answers.map(nameOf)
    expect(names.every((name) => NAME.test(name))).toBe(true)
    expect(new Set([before, ...names].map(runOf)).size).toBe(1)
    // The purchase is a change (with its card's): its answer names the data holding it.
    expect(changesOf(names[0]!)).toBeGreaterThan(changesOf(before))
    expect(names.slice(1)).toEqual([names[0], names[0], names[0]])
  })

  it('is a new run for each start in memory, and for a reset, which holds none of the runs before', async () => {
    const first = await sandbox()
    const second = await sandbox()
    const name = nameOf(await call(first, 'GET', '/_sandbox/clock', {auth: null}))
    expect(runOf(nameOf(await call(second, 'GET', '/_sandbox/clock', {auth: null})))).not.toBe(runOf(name))
    await call(first, 'POST', '/_sandbox/reset', {auth: null})
    const reset = nameOf(await call(first, 'GET', '/_sandbox/clock', {auth: null}))
    expect(runOf(reset)).not.toBe(runOf(name))
    expect(await held(first)).toEqual({instance: reset, runs: [{id: runOf(reset), until: changesOf(reset)}]})
  })

  it('a restart on the --state file is a new run that holds the one before to the last change; a reset journaled there holds none', async () => {
    const stateFile = join(folder(), 'state.json')
    const first = await sandbox({stateFile})
    const answered = nameOf(await purchase(first))
    await first.close()
    expect(stateIn(stateFile).instance).toBe(answered)
    const second = await sandbox({stateFile})
    const now = nameOf(await call(second, 'GET', '/_sandbox/clock', {auth: null}))
    expect(runOf(now)).not.toBe(runOf(answered))
    expect((await held(second)).runs).toEqual([{id: runOf(answered), until: changesOf(answered)}, {id: runOf(now), until: changesOf(now)}])
    await call(second, 'POST', '/_sandbox/reset', {auth: null})
    const reset = nameOf(await call(second, 'GET', '/_sandbox/clock', {auth: null}))
    // Killed here, the row of the reset is what a restart reads.
    expect(stateOnDisk(stateFile).instance).toBe(reset)
    expect(stateOnDisk(stateFile).heldRuns()).toEqual([{id: runOf(reset), until: changesOf(reset)}])
  })

  it('a copy of the --state file taken before a purchase, started again, does not hold what was answered after the copy', async () => {
    const dir = folder()
    const stateFile = join(dir, 'state.json')
    const first = await sandbox({stateFile})
    const before = nameOf(await purchase(first, {reference: 'before-the-copy'}))
    const copy = copyOnDisk(stateFile)
    const after = nameOf(await purchase(first, {reference: 'after-the-copy'}))
    await first.close()
    const restored = await sandbox({stateFile: copy})
    const {runs} = await held(restored)
    const until = new Map(runs.map((run) => [run.id, run.until]))
    expect(until.get(runOf(before))).toBe(changesOf(before))
    expect(changesOf(after)).toBeGreaterThan(until.get(runOf(after))!)
  })
})

describe('the state file is its real file', () => {
  it('written through a symlink, is the file it leads to, and leaves the link a link', async () => {
    const dir = folder()
    const real = join(dir, 'real')
    mkdirSync(real)
    symlinkSync(join(real, 'state.json'), join(dir, 'state.json'))
    const gateway = await sandbox({stateFile: join(dir, 'state.json')})
    const created = (await purchase(gateway, {reference: 'through-a-link'})).body.response
    await gateway.close()
    expect(lstatSync(join(dir, 'state.json')).isSymbolicLink()).toBe(true)
    expect(readlinkSync(join(dir, 'state.json'))).toBe(join(real, 'state.json'))
    expect(stateIn(join(real, 'state.json')).find('purchases', 'TEST', 'through-a-link')).toMatchObject({found: 'own', record: {id: created.id}})
    // Nothing was left beside the link, nor beside the file.
    expect(readdirSync(dir).sort()).toEqual(['real', 'state.json'])
    expect(readdirSync(real)).toEqual(['state.json'])
  })

  it('through a dangling symlink, is made where the link points, and the link kept', async () => {
    const dir = folder()
    symlinkSync('made-later.json', join(dir, 'state.json'))
    const gateway = await sandbox({stateFile: join(dir, 'state.json')})
    const created = (await purchase(gateway, {reference: 'made-later'})).body.response
    await gateway.close()
    expect(lstatSync(join(dir, 'state.json')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(dir, 'made-later.json')).subarray(0, 15).toString()).toBe('SQLite format 3')
    expect(stateIn(join(dir, 'made-later.json')).find('purchases', 'TEST', 'made-later')).toMatchObject({found: 'own', record: {id: created.id}})
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
    stateIn(file)
    linkSync(file, join(dir, 'copy.json'))
    for (const name of [file, join(dir, 'copy.json')]) {
      await expect(sandbox({stateFile: name})).rejects.toMatchObject({
        name: 'StateFileError',
        message: `${name} has 2 names (hard links): SQLite keeps the latest writes beside the name the gateway opened it by, where a gateway started on the file's other name after a crash would not look`,
        hint: 'Give --state a file with one name: remove the other names, or copy the file (cp) and use the copy.',
      })
    }
    // Refused before anything was written: both names still hold the one file.
    expect(lstatSync(file).nlink).toBe(2)
  })
})

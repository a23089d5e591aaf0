import {mkdtempSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {StateFileError} from '../../src/sandbox/server/state-file-error.js'
import {call, purchase, sandbox} from './helpers.js'
import {copyOnDisk, rowsOf, stateOnDisk} from './state-file.js'
import {expectReject} from '../expect-error.js'

const CVV = '9876'

/** Every string anywhere in a JSON document. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, inner]) => [key, ...strings(inner)])
}

describe('state file', () => {
  it('survives a restart: the purchase is found again by id and by reference, and no CVV was written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-sandbox-'))
    const stateFile = join(dir, 'state.json')
    const first = await sandbox({stateFile})
    const created = (await purchase(first, {card_number: '4005550000000001', cvv: CVV, reference: 'kept'})).body.response
    const tokenized = await call(first, 'POST', '/v1.0/credit_cards', {
      body: {card_holder: 'Jo', card_number: '4005550000000001', card_expiry: '02/2030', cvv: CVV},
    })
    expect(tokenized.status).toBe(200)
    await first.close()

    const {snapshot, batches} = rowsOf(stateFile)
    expect(batches).toEqual([])
    expect(snapshot).not.toMatch(/"cvv"/i)
    expect(strings(JSON.parse(snapshot))).not.toContain(CVV)
    expect(readFileSync(stateFile, 'latin1')).not.toContain('4005550000000001')
    expect(readdirSync(dir)).toEqual(['state.json'])

    const second = await sandbox({stateFile})
    for (const key of [created.id, 'kept']) {
      const answer = await call(second, 'GET', `/v1.0/purchases/${key}`)
      expect(answer.status).toBe(200)
      expect(answer.body.response).toStrictEqual(created)
    }
    // Field for field and in the same order: --json prints the record as the gateway sent it.
    expect(JSON.stringify((await call(second, 'GET', `/v1.0/purchases/${created.id}`)).body.response)).toBe(JSON.stringify(created))
    expect((await call(second, 'GET', `/v1.0/credit_cards/${tokenized.body.response.token}`)).body.response).toStrictEqual(
      tokenized.body.response,
    )
  })

  it('never holds a card number inside text: written masked (journal lines and snapshot alike); restarted, the record answers masked and is found by the reference as sent', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'state.json')
    const first = await sandbox({stateFile})
    const made = await purchase(first, {reference: 'x4111111111111111y', card_holder: '4111 1111 1111 1111'})
    expect(made.body.response).toMatchObject({reference: 'x4111111111111111y', card_holder: '4111 1111 1111 1111'})
    const wholeCard = /4111[ -]?1111[ -]?1111[ -]?1111/
    // Before the clean stop (a row of changes), and after it (the snapshot): in the rows, and anywhere in the file.
    const running = copyOnDisk(stateFile)
    expect(rowsOf(running).batches.join('\n')).toContain('"reference":"x411111XXXXXX1111y"')
    expect(readFileSync(running, 'latin1')).not.toMatch(wholeCard)
    await first.close()
    expect(rowsOf(stateFile).snapshot).toContain('"reference":"x411111XXXXXX1111y"')
    expect(readFileSync(stateFile, 'latin1')).not.toMatch(wholeCard)
    const second = await sandbox({stateFile})
    for (const key of ['x4111111111111111y', made.body.response.id]) {
      const found = await call(second, 'GET', `/v1.0/purchases/${key}`)
      expect(found.status, key).toBe(200)
      expect(found.body.response).toMatchObject({id: made.body.response.id, reference: 'x411111XXXXXX1111y', card_holder: '411111XXXXXX1111'})
    }
    // The reference is still taken; its masked spelling is a reference of its own, as on the live gateway.
    expect((await purchase(second, {reference: 'x4111111111111111y'})).body.errors).toEqual(['Reference is already taken'])
    expect((await call(second, 'GET', '/v1.0/purchases/x411111XXXXXX1111y')).status).toBe(404)
  })

  it('writes after each change, before answering: the file on disk holds it', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'state.json')
    const gateway = await sandbox({stateFile})
    const created = (await purchase(gateway)).body.response
    expect(stateOnDisk(stateFile).find('purchases', 'TEST', created.id)).toStrictEqual({found: 'own', record: created})

    const [before] = stateOnDisk(stateFile).snapshot().runs!
    await call(gateway, 'POST', '/_sandbox/reset', {auth: null})
    // Emptied, the data is another run's: it has a new name.
    const id = expect.stringMatching(/^[0-9a-f-]{36}$/)
    expect(stateOnDisk(stateFile).snapshot()).toStrictEqual({merchants: {}, runs: [{id, from: 0}], changes: 1})
    expect(stateOnDisk(stateFile).snapshot().runs![0]!.id).not.toBe(before!.id)
  })

  it('refuses to start on a file that is not a state file, rather than overwrite it', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'gw-sandbox-')), 'notes.txt')
    writeFileSync(stateFile, 'my notes')
    await expectReject(sandbox({stateFile}), StateFileError, `${stateFile} is not a gw sandbox state file`)
    expect(readFileSync(stateFile, 'utf8')).toBe('my notes')
  })
})

import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {journalTarget} from '../../../src/batch/journal-identity.js'
import {recordRefundMade, refundsMade, refundsMadeFile} from '../../../src/batch/refunds-made.js'
import {WriteError} from '../../../src/errors.js'

// A single `gw refund create` is recorded in gw's data directory, so that its refund is certain
// for the purchase it was made for (design.md §3); two gw at once each keep theirs.
const target = journalTarget('https://gateway.example/', 'TEST')
const purchase = {id: '071-P-1VQZVNTX', reference: 'order-1042'}
const refund = (id: string, more: Record<string, unknown> = {}) => ({id, reference: `${id}-ref`, amount: 500, successful: true, ...more})
const dataDir = () => mkdtempSync(join(tmpdir(), 'gw-refunds-made-'))

describe('recordRefundMade and refundsMade', () => {
  it('records the refund and the purchase it was made for, as asked and as looked up; found again by the refund id, for this gateway and merchant only', async () => {
    const dir = dataDir()
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042', purchase}, {now: new Date('2026-11-17T00:00:00Z')})
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0002'), transactionId: '071-P-OTHER001'})
    await recordRefundMade(dir, {...target, username: 'OTHER'}, {refund: refund('071-R-AAAA0003'), transactionId: 'order-1042'})
    // No id, nothing to know it by: not recorded.
    await recordRefundMade(dir, target, {refund: {reference: 'x'}, transactionId: 'order-1042'})
    const found = await refundsMade(dir, target, new Set(['071-R-AAAA0001', '071-R-AAAA0002', '071-R-AAAA0003', '071-R-NOPE0000']))
    expect(found).toEqual(
      new Map([
        ['071-R-AAAA0001', {transactionId: 'order-1042', purchaseId: purchase.id, purchaseReference: 'order-1042', by: 'refund_create'}],
        ['071-R-AAAA0002', {transactionId: '071-P-OTHER001', by: 'refund_create'}],
      ]),
    )
    expect(readFileSync(refundsMadeFile(dir), 'utf8').split('\n').filter(Boolean)[0]).toBe(
      `{"refund":"071-R-AAAA0001","reference":"071-R-AAAA0001-ref","transaction_id":"order-1042","purchase_id":"${purchase.id}","purchase_reference":"order-1042","target":{"base_url":"https://gateway.example","username":"TEST"},"at":"2026-11-17T00:00:00.000Z"}`,
    )
    expect(await refundsMade(dir, target, new Set())).toEqual(new Map())
  })

  it('a card number in a reference is masked; another run of the local gateway\'s data holds other refunds under those ids', async () => {
    const dir = dataDir()
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001', {reference: 'r-4111111111111111'}), transactionId: 'p-4111111111111111', gatewayInstance: 'run-1'})
    const text = readFileSync(refundsMadeFile(dir), 'utf8')
    expect(text).not.toContain('4111111111111111')
    expect(text).toContain('"gateway_instance":"run-1"')
    // Kept while the gateway holds the data it was made against.
    expect((await refundsMade(dir, target, new Set(['071-R-AAAA0001']), (instance) => instance === 'run-1')).size).toBe(1)
    expect((await refundsMade(dir, target, new Set(['071-R-AAAA0001']), () => false)).size).toBe(0)
    // A gateway that names no run (the live one) is one run.
    expect((await refundsMade(dir, target, new Set(['071-R-AAAA0001']))).size).toBe(1)
  })

  it('a torn line (a crash, a full disk) spoils no other: the next record starts on a line of its own', async () => {
    const dir = dataDir()
    writeFileSync(refundsMadeFile(dir), '{"refund":"071-R-TORN0000","transaction_id":"ord')
    await recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'})
    expect([...(await refundsMade(dir, target, new Set(['071-R-TORN0000', '071-R-AAAA0001']))).keys()]).toEqual(['071-R-AAAA0001'])
  })

  it('a write the disk cuts short, or a file that cannot be opened, is a WriteError naming the file', async () => {
    const dir = dataDir()
    const short = recordRefundMade(dir, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'}, {write: async () => 10})
    await expect(short).rejects.toThrow(WriteError)
    await expect(short).rejects.toThrow(`${refundsMadeFile(dir)} cannot be written (ENOSPC)`)
    const file = join(dataDir(), 'a-file')
    writeFileSync(file, '')
    await expect(recordRefundMade(file, target, {refund: refund('071-R-AAAA0001'), transactionId: 'order-1042'})).rejects.toThrow(/cannot be written \((EEXIST|ENOTDIR)\)/)
  })

  it('two gw recording at once each keep every one of theirs', async () => {
    const dir = dataDir()
    const source = (file: string) => JSON.stringify(join(import.meta.dirname, '../../../src/batch', file))
    const script = `Promise.all([import(${source('refunds-made.ts')}), import(${source('journal-identity.ts')})]).then(([{recordRefundMade}, {journalTarget}]) => {
      const target = journalTarget('https://gateway.example/', 'TEST')
      const who = process.argv.at(-1)
      return Promise.all(Array.from({length: 50}, (_, i) => recordRefundMade(${JSON.stringify(dir)}, target, {refund: {id: who + '-' + i}, transactionId: 'order-1042'})))
    })`
    const run = (who: string) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, who], {stdio: 'inherit'})
        child.on('error', reject)
        child.on('exit', resolve)
      })
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0])
    const ids = new Set([...Array.from({length: 50}, (_, i) => `a-${i}`), ...Array.from({length: 50}, (_, i) => `b-${i}`)])
    expect((await refundsMade(dir, target, ids)).size).toBe(100)
  })
})

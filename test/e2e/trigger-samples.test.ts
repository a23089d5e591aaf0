import {describe, expect, it} from 'vitest'
import {type Sandbox, sharedSandbox} from './helpers.js'

// gw sandbox trigger says what it created, and gw report leaves its sample charges out.
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

const HOOK = 'http://127.0.0.1:9/hooks'

interface Made {
  kind: string
  id: string
  reference: string | null
}

describe('gw sandbox trigger and the records it makes', () => {
  it('says in its help what it creates, and the mark gw report knows its charges by', async () => {
    const help = (await sandbox.gw(['sandbox', 'trigger', '--help'])).stdout.replace(/\s+/g, ' ')
    expect(help).toContain('It creates records on the local gateway')
    expect(help).toContain('whose metadata carries gw_sample: "gw sandbox trigger"; gw report leaves those out unless --include-samples')
    expect(help).toContain('the records it created (created: kind, id and reference of each)')
  })

  it('prints the records it created; the charge is marked, and gw report leaves it out unless --include-samples', async () => {
    const first = await sandbox.gw(['sandbox', 'trigger', 'charge:successful', '--webhook', HOOK, '--json'])
    expect(first.code, first.stderr).toBe(0)
    const created = (first.json as {created: Made[]}).created
    expect(created.map(({kind}) => kind)).toEqual(['card', 'customer', 'plan', 'subscription', 'purchase'])
    const purchase = created.find(({kind}) => kind === 'purchase')!
    expect(purchase.reference).toMatch(/^sample-subscription-[a-z0-9]{6}-sample-[a-z0-9]{6}$/)
    const got = await sandbox.gw(['purchase', 'get', purchase.id, '--json'])
    expect(got.json).toMatchObject({reference: purchase.reference, amount: 1000, successful: true, metadata: {gw_sample: 'gw sandbox trigger'}})

    // The merchant's records serve the next sample: only its charge is new.
    const second = await sandbox.gw(['sandbox', 'trigger', 'charge:failed', '--webhook', HOOK, '--json'])
    expect((second.json as {created: Made[]}).created.map(({kind}) => kind)).toEqual(['purchase'])
    // An event that charges nothing makes nothing.
    expect((await sandbox.gw(['sandbox', 'trigger', 'card:expiring', '--webhook', HOOK, '--json'])).json).toMatchObject({created: []})

    const report = await sandbox.gw(['report'])
    expect(report.code, report.stderr).toBe(0)
    // Today still has its row, of zeros: the samples are all it saw, and they count for nothing.
    expect(report.records).toMatchObject([{currency: '', purchases_approved: 0, purchases_declined: 0, net: 0}])
    expect(report.stderr).toBe('Left out 2 purchases gw sandbox trigger made for sample events (metadata gw_sample); --include-samples counts them.\n')
    const counted = await sandbox.gw(['report', '--include-samples'])
    expect(counted.stderr).toBe('')
    expect(counted.records).toMatchObject([{currency: 'AUD', purchases_approved: 1, purchases_approved_amount: 1000, purchases_declined: 1, net: 1000}])
  })
})

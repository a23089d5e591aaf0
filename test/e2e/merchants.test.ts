import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {cardArgs, ref, type Sandbox, startSandbox} from './helpers.js'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startSandbox(['--merchant', 'ACME:s3cret'])
})
afterAll(async () => {
  await sandbox?.stop()
})

const asAcme = {GW_USERNAME: 'ACME', GW_TOKEN: 's3cret'}

describe('merchants of one local gateway', () => {
  it("cannot read each other's purchases: exit 6 with the contract's message", async () => {
    const reference = ref()
    const created = (await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs(), '--json'])).json as {id: string}
    const byId = await sandbox.gw(['purchase', 'get', created.id], {env: asAcme})
    expect(byId.code).toBe(6)
    expect(byId.stderr).toContain('Error: You do not have permissions to access this record (HTTP 403')
    // References belong to each merchant: ACME has none by that name.
    expect((await sandbox.gw(['purchase', 'get', reference], {env: asAcme})).code).toBe(5)
  })

  it("cannot charge another merchant's card token", async () => {
    const token = ((await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])).json as {token: string}).token
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), '--card-token', token], {env: asAcme})
    expect(result.code).toBe(7)
    expect(result.stderr).toContain(`Card ${'*'.repeat(16)}${token.slice(-4)} could not be found`)
  })

  it('gives each merchant ids with its own prefix', async () => {
    const result = await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(), '--json'], {env: asAcme})
    expect(result.code).toBe(0)
    const id = (result.json as {id: string}).id
    expect(id).toMatch(/^\d{3}-P-[A-Z0-9]{8}$/)
    expect(id.slice(0, 3)).not.toBe('071')
  })
})

import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {cardArgs, isolatedHome, ref, runGw, type Sandbox, sharedSandbox, startSandbox} from './helpers.js'

let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started), ['--merchant', 'ACME:s3cret'])

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

// A foreground gateway's argv shows in every user's ps (twice, through the relaunch):
// --merchant - and @FILE keep the tokens out of it.
describe('merchants given without their tokens in argv', () => {
  it('--merchant - reads USER:TOKEN lines from stdin; the detached gateway runs with no token on its command line', async () => {
    const home = isolatedHome()
    const started = await runGw(['sandbox', 'start', '--detach', '--port', '0', '--merchant', '-'], {env: home, stdin: 'ACME:s3cret\nBETA:b3ta\n'})
    expect(started.code, started.stderr).toBe(0)
    try {
      const url = started.stdout.trim()
      const asBeta = await runGw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(), '--json'], {env: {...home, GW_BASE_URL: url, GW_USERNAME: 'BETA', GW_TOKEN: 'b3ta'}})
      expect(asBeta.code, asBeta.stderr).toBe(0)
      const runtime = JSON.parse(readFileSync(join(home.XDG_DATA_HOME!, 'gw', 'sandbox.json'), 'utf8')) as {merchants: string[]; process?: {command: string}}
      expect(runtime.merchants).toEqual(['ACME', 'BETA'])
      expect(JSON.stringify(runtime)).not.toContain('s3cret')
      if (runtime.process) expect(runtime.process.command).not.toMatch(/s3cret|b3ta|--merchant/)
    } finally {
      await runGw(['sandbox', 'stop'], {env: home})
    }
  })

  it('--merchant @FILE reads them from a file, in the foreground too', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-merchants-')), 'merchants.txt')
    writeFileSync(file, '# the rehearsal merchants\nACME:s3cret\n', {mode: 0o600})
    const gateway = await startSandbox(['--merchant', `@${file}`])
    try {
      expect(gateway.stderr()).toContain('merchants TEST, ACME')
      expect((await gateway.gw(['purchase', 'list', '--limit', '1'], {env: {GW_USERNAME: 'ACME', GW_TOKEN: 's3cret'}})).code).toBe(0)
    } finally {
      await gateway.stop()
    }
  })
})

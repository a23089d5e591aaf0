import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {saveConfig} from '../../../src/auth/config.js'
import {saveLocalProfile} from '../../../src/auth/local-profile.js'
import {environmentOf, resolveCredentials} from '../../../src/auth/resolve.js'
import {UsageError} from '../../../src/errors.js'
import {fileTokenStore, type TokenStores} from '../../../src/auth/token-store.js'

/** Every profile's token in one file: the precedence rules do not care where tokens live. */
function fileStores(configDir: string): TokenStores {
  const store = fileTokenStore(join(configDir, 'tokens.json'))
  return async () => store
}

async function setup() {
  const configDir = mkdtempSync(join(tmpdir(), 'gw-auth-'))
  const store = fileTokenStore(join(configDir, 'tokens.json'))
  const tokens: TokenStores = async () => store
  await saveConfig(configDir, {
    activeProfile: 'main',
    profiles: {
      main: {environment: 'sandbox', baseUrl: 'http://main.example', username: 'MAIN'},
      other: {environment: 'live', baseUrl: 'https://other.example', username: 'OTHER'},
    },
  })
  await store.set('main', 'main-token')
  await store.set('other', 'other-token')
  return {configDir, tokens}
}

describe('resolveCredentials precedence', () => {
  it('--profile beats GW_PROFILE, which beats the environment credentials, which beat the active profile', async () => {
    const {configDir, tokens} = await setup()
    const env = {GW_PROFILE: 'main', GW_USERNAME: 'ENV', GW_TOKEN: 'env-token'}
    expect(await resolveCredentials({profileFlag: 'other', env, configDir, tokens})).toMatchObject({username: 'OTHER', source: 'flag', environment: 'live'})
    expect(await resolveCredentials({env, configDir, tokens})).toMatchObject({username: 'MAIN', token: 'main-token', source: 'GW_PROFILE'})
    expect(await resolveCredentials({env: {GW_USERNAME: 'ENV', GW_TOKEN: 'env-token'}, configDir, tokens})).toMatchObject({username: 'ENV', baseUrl: 'http://127.0.0.1:8787', source: 'environment'})
    expect(await resolveCredentials({env: {}, configDir, tokens})).toMatchObject({username: 'MAIN', baseUrl: 'http://main.example', source: 'active'})
  })

  it('works from the environment with no config at all', async () => {
    const configDir = join(tmpdir(), 'gw-none-' + Date.now())
    expect(await resolveCredentials({env: {GW_USERNAME: 'U', GW_TOKEN: 'T', GW_BASE_URL: 'https://x'}, configDir, tokens: fileStores(configDir)})).toMatchObject({baseUrl: 'https://x', username: 'U', token: 'T'})
  })

  it('says what is missing', async () => {
    const configDir = join(tmpdir(), 'gw-none-' + Date.now())
    const tokens = fileStores(configDir)
    await expect(resolveCredentials({env: {}, configDir, tokens})).rejects.toMatchObject({exitCode: 4, message: expect.stringContaining('No credentials')})
    await expect(resolveCredentials({env: {GW_USERNAME: 'U'}, configDir, tokens})).rejects.toMatchObject({exitCode: 4, message: 'GW_TOKEN is not set'})
    const {configDir: dir, tokens: store} = await setup()
    await expect(resolveCredentials({profileFlag: 'nope', env: {}, configDir: dir, tokens: store})).rejects.toMatchObject({exitCode: 2, message: 'No profile named nope'})
    await expect(resolveCredentials({env: {GW_CONNECT_TIMEOUT_MS: 'soon'}, configDir: dir, tokens: store})).rejects.toMatchObject({
      exitCode: 2,
      message: 'GW_CONNECT_TIMEOUT_MS must be a whole number of milliseconds, got soon',
      hint: "For example GW_CONNECT_TIMEOUT_MS=30000 for 30 s, or leave it unset for gw's own; gw help environment lists every variable gw reads.",
    })
  })
})

describe('where a token may go', () => {
  const configDir = join(tmpdir(), 'gw-none-urls')
  const tokens = fileStores(configDir)
  const fromEnv = (baseUrl: string, environment?: string) => resolveCredentials({env: {GW_USERNAME: 'U', GW_TOKEN: 'T', GW_BASE_URL: baseUrl, GW_ENVIRONMENT: environment}, configDir, tokens})

  it('refuses a base URL with credentials in it, never echoing them', async () => {
    const refused = await fromEnv('https://shop:tok3n@gateway.example.com').catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(UsageError)
    expect((refused as UsageError).message).toBe('GW_BASE_URL https://***@gateway.example.com holds credentials (user:token@): gw would keep them in plain text and print them (gw status, --verbose, errors)')
    expect((refused as UsageError).hint).toBe('Give the user in GW_USERNAME and the token in GW_TOKEN, and GW_BASE_URL without them.')
    const {configDir: dir, tokens: store} = await setup()
    await saveConfig(dir, {activeProfile: 'old', profiles: {old: {environment: 'sandbox', baseUrl: 'https://old:s3cret@gateway.example.com', username: 'OLD'}}})
    const profile = await resolveCredentials({env: {}, configDir: dir, tokens: store}).catch((err: unknown) => err)
    expect((profile as UsageError).message).toBe('The base URL of profile old, https://***@gateway.example.com holds credentials (user:token@): gw would keep them in plain text and print them (gw status, --verbose, errors)')
    expect(JSON.stringify(profile) + String((profile as Error).message) + (profile as UsageError).hint).not.toContain('s3cret')
  })

  it.each([
    ['u:sekrit@gateway.example.com', 'GW_BASE_URL ***@gateway.example.com holds credentials (user:token@): gw would keep them in plain text and print them (gw status, --verbose, errors)'],
    ['gateway.example.com', 'GW_BASE_URL must be a URL such as https://gateway.example.com, got "gateway.example.com"'],
    ['ftp://gateway.example.com', 'GW_BASE_URL must be an http:// or https:// URL such as https://gateway.example.com, got "ftp://gateway.example.com"'],
    ['not a url', 'GW_BASE_URL must be a URL such as https://gateway.example.com, got "not a url"'],
  ])('refuses GW_BASE_URL=%s, exit 2, naming it with anything before an @ masked (no scheme: a parser takes u: for one)', async (baseUrl, message) => {
    const refused = await fromEnv(baseUrl).catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(UsageError)
    expect(refused).toMatchObject({exitCode: 2, message})
    expect(JSON.stringify(refused) + (refused as Error).message + (refused as UsageError).hint).not.toContain('sekrit')
  })

  it('sends a live token over plain http only to this machine', async () => {
    const refused = await fromEnv('http://gateway.example.com').catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(UsageError)
    expect((refused as UsageError).message).toBe('http://gateway.example.com is plain http: the live token of the credentials in GW_USERNAME and GW_TOKEN would cross the network readable by anyone on the way, so gw does not send it')
    expect(await fromEnv('https://gateway.example.com')).toMatchObject({environment: 'live', token: 'T'})
    expect(await fromEnv('http://127.0.0.1:4100', 'live')).toMatchObject({environment: 'live', token: 'T'})
    expect(await fromEnv('http://gateway.example.com', 'sandbox')).toMatchObject({environment: 'sandbox', token: 'T'})
    const {configDir: dir, tokens: store} = await setup()
    await saveConfig(dir, {activeProfile: 'shop', profiles: {shop: {environment: 'live', baseUrl: 'http://gateway.example.com', username: 'SHOP'}}})
    await expect(resolveCredentials({env: {}, configDir: dir, tokens: store})).rejects.toMatchObject({exitCode: 2, hint: "Give the gateway's https:// address: gw login --profile shop --base-url https://gateway.example.com"})
  })
})

describe('saveLocalProfile', () => {
  it('activates local only when no other profile is active, and refreshes its URL', async () => {
    const {configDir} = await setup()
    expect(await saveLocalProfile(configDir, 'http://127.0.0.1:9999', 'sandbox')).toEqual({activated: false})
    const fresh = mkdtempSync(join(tmpdir(), 'gw-auth-'))
    expect(await saveLocalProfile(fresh, 'http://127.0.0.1:1111', 'sandbox')).toEqual({activated: true})
    await saveLocalProfile(fresh, 'http://127.0.0.1:2222', 'sandbox')
    expect(await resolveCredentials({env: {}, configDir: fresh, tokens: fileStores(fresh)})).toMatchObject({profileName: 'local', baseUrl: 'http://127.0.0.1:2222', username: 'TEST', token: 'TEST', secretStorage: 'config'})
  })

  it('needs no token store at all: the demo token is public and lives in the profile', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'gw-auth-'))
    await saveLocalProfile(fresh, 'http://127.0.0.1:1111', 'sandbox')
    const noKeychain: TokenStores = () => Promise.reject(new Error('no keychain on this machine'))
    expect(await resolveCredentials({env: {}, configDir: fresh, tokens: noKeychain})).toMatchObject({token: 'TEST'})
  })
})

describe('environmentOf: credentials from the environment alone count as live unless shown otherwise', () => {
  it.each([
    ['https://gateway.example.com', undefined, 'live'],
    ['https://gateway.example.com', '', 'live'],
    ['https://gateway.example.com', 'sandbox', 'sandbox'],
    ['http://127.0.0.1:8787', undefined, 'sandbox'],
    ['http://localhost:4000', undefined, 'sandbox'],
    ['http://[::1]:4000', undefined, 'sandbox'],
    ['http://127.0.0.1:8787', 'live', 'live'],
  ])('%s with GW_ENVIRONMENT=%s is %s', (baseUrl, declared, environment) => {
    expect(environmentOf(baseUrl, declared)).toBe(environment)
  })

  it('refuses a GW_ENVIRONMENT that is neither, and a base URL that is no URL', () => {
    expect(() => environmentOf('https://gateway.example.com', 'prod')).toThrow(UsageError)
    expect(() => environmentOf('gateway', undefined)).toThrow(UsageError)
  })
})

import {randomUUID} from 'node:crypto'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {filesUnder, keychainSecret, secretService} from './auth-helpers.js'
import {isolatedHome, runGw, type Sandbox, sharedSandbox} from './helpers.js'

// The real OS keychain: a Secret Service on the session bus, checked with libsecret's secret-tool.
const service = secretService()
const mustRun = Boolean(process.env.CI)
if (service.reason && !mustRun) console.warn(`Skipping the keychain tests: ${service.reason}`)

describe.skipIf(service.reason !== undefined && !mustRun)('tokens in the OS keychain', () => {
  let sandbox: Sandbox
  sharedSandbox((started) => void (sandbox = started), ['--merchant', 'ACME:acme-token-123'])

  // Accounts are shared by every gw on this keyring: a name of its own for each test.
  const profileName = () => `test-${randomUUID().slice(0, 8)}`
  const home = () => ({...isolatedHome(), ...service.env})
  const configDir = (env: NodeJS.ProcessEnv) => join(env.XDG_CONFIG_HOME!, 'gw')

  it('has a Secret Service to test against', () => {
    expect(service.reason, 'with CI=true the keychain tests must run').toBeUndefined()
  })

  it('gw login keeps the token in the keychain (service gw, account the profile) and in no file', async () => {
    const env = home()
    const name = profileName()
    const login = await runGw(['login', '--profile', name, '--base-url', sandbox.url, '--username', 'ACME', '--token-stdin', '--json'], {env, stdin: 'acme-token-123\n'})
    expect(login.code, login.stderr).toBe(0)
    expect(login.json).toMatchObject({name, secret: 'keychain'})
    expect(keychainSecret(name)).toBe('acme-token-123')
    const files = filesUnder(configDir(env))
    // config.json, and the empty database whose kernel lock one writer of it holds (auth/config.ts).
    expect(Object.keys(files).sort()).toEqual([join(configDir(env), 'config.json'), join(configDir(env), 'config.json.lock.sqlite')])
    for (const text of Object.values(files)) expect(text).not.toContain('acme-token-123')

    const status = await runGw(['status', '--json'], {env})
    expect(status.code, status.stderr).toBe(0)
    expect(status.json).toMatchObject({profile: name, username: 'ACME', secret: `OS keychain, service gw, account ${name}`})
    expect(status.stdout + status.stderr).not.toContain('acme-token-123')
    const read = await runGw(['purchase', 'get', 'nothing-here'], {env})
    expect(read.code).toBe(5)

    const out = await runGw(['logout'], {env})
    expect(out.code, out.stderr).toBe(0)
    expect(out.stderr).toBe(`Logged out of ${name}: token removed from OS keychain (service gw)\n`)
    expect(keychainSecret(name)).toBeUndefined()
    const after = await runGw(['status'], {env})
    expect(after.code).toBe(4)
    expect(after.stderr).toBe(`Error: Profile ${name} has no token in OS keychain (service gw)\nHint: Log in again: gw login --profile ${name}\n`)
  })

  it('moving a profile from --insecure-storage to the keychain leaves no plain-file copy', async () => {
    const env = home()
    const name = profileName()
    const args = ['login', '--profile', name, '--base-url', sandbox.url, '--username', 'ACME', '--token-stdin']
    expect((await runGw([...args, '--insecure-storage'], {env, stdin: 'acme-token-123'})).code).toBe(0)
    expect(existsSync(join(configDir(env), 'insecure-credentials.json'))).toBe(true)
    const again = await runGw(args, {env, stdin: 'acme-token-123'})
    expect(again.code, again.stderr).toBe(0)
    expect(existsSync(join(configDir(env), 'insecure-credentials.json'))).toBe(false)
    expect(keychainSecret(name)).toBe('acme-token-123')
    await runGw(['logout'], {env})
  })
})

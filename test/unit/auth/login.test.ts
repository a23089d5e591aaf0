import {existsSync, mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {GatewayClient} from '../../../src/api/client.js'
import {loadConfig, type TokenStore} from '../../../src/auth/config.js'
import {KeychainUnavailableError} from '../../../src/auth/keychain.js'
import {login, type LoginFlags} from '../../../src/auth/login.js'
import type {TokenStores} from '../../../src/auth/token-store.js'
import {ModeMismatchError, NotFoundError} from '../../../src/errors.js'
import {testIo} from '../../test-io.js'
import type {Prompter} from '../../../src/output/prompter.js'
import {expectReject} from '../../expect-error.js'

function memoryStore(location: string, {broken = false} = {}): TokenStore & {tokens: Map<string, string>} {
  const tokens = new Map<string, string>()
  const check = () => {
    if (broken) throw new KeychainUnavailableError('no Secret Service is running')
  }
  return {
    location,
    tokens,
    get: async (profile) => (check(), tokens.get(profile)),
    set: async (profile, token) => void (check(), tokens.set(profile, token)),
    delete: async (profile) => void (check(), tokens.delete(profile)),
  }
}

/** A gateway probe that answers 404 in the given mode, as the real one does for an unknown purchase. */
function probeIn(mode: 'sandbox' | 'live' | undefined) {
  return async () =>
    ({
      purchases: {get: async () => Promise.reject(new NotFoundError('Purchase not found'))},
      reportedMode: mode,
      close: async () => {},
    }) as unknown as GatewayClient
}

/** Answers questions from a script, in order, and records them. */
function scripted(answers: string[]): Prompter & {asked: string[]} {
  const asked: string[] = []
  const next = async (message: string) => {
    asked.push(message)
    if (answers.length === 0) throw new Error(`unexpected question: ${message}`)
    return answers.shift()!
  }
  return {asked, text: next, secret: next, choose: next as Prompter['choose']}
}

async function setup({tty = false, keychain = true, mode = 'sandbox' as 'sandbox' | 'live' | 'none', answers = [] as string[]} = {}) {
  const configDir = mkdtempSync(join(tmpdir(), 'gw-login-'))
  const stores = {keychain: memoryStore('OS keychain', {broken: !keychain}), file: memoryStore(join(configDir, 'insecure-credentials.json'))}
  const tokens: TokenStores = async (storage) => stores[storage]
  const io = testIo({tty, stdin: 'secret-token\n'})
  const prompter = scripted(answers)
  const context = {configDir, io, prompter: async () => prompter, tokens, clientFor: probeIn(mode === 'none' ? undefined : mode)}
  return {configDir, stores, io, prompter, context}
}

const flags = (extra: Partial<LoginFlags> = {}): LoginFlags => ({profile: 'shop', baseUrl: 'https://gateway.example.com', username: 'SHOP', tokenStdin: true, readOnly: false, insecureStorage: false, ...extra})

describe('gw login takes the environment from the mode the gateway reports', () => {
  it('refuses a --environment the gateway contradicts, saving nothing (exit 6)', async () => {
    const {context, configDir, stores} = await setup({mode: 'live'})
    await expect(login(flags({environment: 'sandbox'}), context)).rejects.toThrow(ModeMismatchError)
    await expectReject(login(flags({environment: 'sandbox'}), context), ModeMismatchError, 'The gateway at https://gateway.example.com reports live mode, not sandbox: nothing was saved')
    expect(stores.keychain.tokens.size).toBe(0)
    expect(existsSync(join(configDir, 'config.json'))).toBe(false)
  })

  it('saves the reported mode when no --environment is given, and says so', async () => {
    const {context, io} = await setup({mode: 'live'})
    expect(await login(flags(), context)).toMatchObject({name: 'shop', environment: 'live'})
    expect(io.stderr()).toBe(
      'The gateway at https://gateway.example.com reports live mode: profile shop is saved as a live profile (real money: confirmations, no card data in arguments).\n' +
        'Profile shop was not made active: commands without --profile use no profile until one is active. Give --profile shop, or make it active with gw profile use shop.\n',
    )
  })

  it('keeps a matching --environment without a word', async () => {
    const {context, io} = await setup({mode: 'sandbox'})
    expect(await login(flags({environment: 'sandbox'}), context)).toMatchObject({environment: 'sandbox'})
    expect(io.stderr()).toBe('')
  })

  it('with no mode reported, a gateway elsewhere is taken for live, one on this machine for the sandbox', async () => {
    expect(await login(flags(), (await setup({mode: 'none'})).context)).toMatchObject({environment: 'live'})
    expect(await login(flags({baseUrl: 'http://127.0.0.1:8787'}), (await setup({mode: 'none'})).context)).toMatchObject({environment: 'sandbox'})
  })
})

describe('interactive gw login without a keychain offers the two ways out', () => {
  it('tries the keychain before the first question, then keeps the token in a plain file when chosen', async () => {
    const {context, stores, prompter, configDir} = await setup({tty: true, keychain: false, answers: ['Keep the token in a file only I can read (--insecure-storage)', 'tok']})
    const record = await login(flags({tokenStdin: false}), context)
    expect(prompter.asked).toEqual(['Where should gw keep the token instead?', 'API token'])
    expect(record).toMatchObject({name: 'shop', secret: 'file'})
    expect(stores.file.tokens.get('shop')).toBe('tok')
    expect((await loadConfig(configDir)).profiles.shop).toMatchObject({tokenStorage: 'file'})
  })

  it('saves nothing and says what to set when the environment variables are chosen', async () => {
    const {context, io, prompter, configDir} = await setup({tty: true, keychain: false, answers: ['Give the credentials in environment variables instead (nothing is saved)']})
    expect(await login(flags({tokenStdin: false}), context)).toBeUndefined()
    expect(prompter.asked).toEqual(['Where should gw keep the token instead?'])
    expect(io.stderr()).toContain('The OS keychain is not available: no Secret Service is running\n')
    expect(io.stderr()).toContain('GW_USERNAME=your-username  GW_TOKEN=your-api-token  GW_BASE_URL=https://gateway.example.com')
    expect(existsSync(join(configDir, 'config.json'))).toBe(false)
  })

  it('without a terminal there is no choice: the keychain error stands', async () => {
    const {context} = await setup({keychain: false})
    await expect(login(flags(), context)).rejects.toThrow(KeychainUnavailableError)
  })
})

// A live profile is not made the active one behind anyone's back.
describe('which profile is active after gw login', () => {
  const withActive = async (configDir: string, name: string) => {
    const {saveConfig} = await import('../../../src/auth/config.js')
    await saveConfig(configDir, {activeProfile: name, profiles: {[name]: {environment: 'sandbox', baseUrl: 'http://127.0.0.1:8787', username: 'TEST', publicToken: 'TEST'}}})
  }

  it('a sandbox profile becomes active, as it always has', async () => {
    const {context, configDir} = await setup({mode: 'sandbox'})
    await withActive(configDir, 'local')
    expect(await login(flags(), context)).toMatchObject({name: 'shop', active: true})
    expect((await loadConfig(configDir)).activeProfile).toBe('shop')
  })

  it('a live one without a terminal is saved, the active profile kept, and says how to switch', async () => {
    const {context, configDir, io} = await setup({mode: 'live'})
    await withActive(configDir, 'local')
    expect(await login(flags(), context)).toMatchObject({name: 'shop', environment: 'live', active: false})
    const config = await loadConfig(configDir)
    expect(config.activeProfile).toBe('local')
    expect(config.profiles.shop).toMatchObject({environment: 'live', username: 'SHOP'})
    expect(io.stderr()).toContain('Profile shop was not made active: commands without --profile still use profile local. Give --profile shop, or make it active with gw profile use shop.\n')
  })

  it('a live one with --activate becomes active; --no-activate keeps even a sandbox one inactive', async () => {
    const live = await setup({mode: 'live'})
    await withActive(live.configDir, 'local')
    expect(await login(flags({activate: true}), live.context)).toMatchObject({active: true})
    expect((await loadConfig(live.configDir)).activeProfile).toBe('shop')
    const sandbox = await setup({mode: 'sandbox'})
    await withActive(sandbox.configDir, 'local')
    expect(await login(flags({activate: false}), sandbox.context)).toMatchObject({active: false})
    expect((await loadConfig(sandbox.configDir)).activeProfile).toBe('local')
  })

  it('at a terminal a live one is asked about, and No (the default) keeps the active profile', async () => {
    const keep = 'No: keep local active; give --profile shop for live work'
    const make = 'Yes: make shop active (commands without --profile then work on real money)'
    const kept = await setup({tty: true, mode: 'live', answers: [keep]})
    await withActive(kept.configDir, 'local')
    expect(await login(flags(), kept.context)).toMatchObject({active: false})
    expect(kept.prompter.asked).toEqual(['Make the live profile shop the active one?'])
    const made = await setup({tty: true, mode: 'live', answers: [make]})
    await withActive(made.configDir, 'local')
    expect(await login(flags(), made.context)).toMatchObject({active: true})
  })

  it('logging in again to the active live profile keeps it active without asking', async () => {
    const {context, configDir, prompter} = await setup({tty: true, mode: 'live', answers: []})
    expect(await login(flags({activate: true}), context)).toMatchObject({active: true})
    expect(await login(flags(), context)).toMatchObject({active: true})
    expect(prompter.asked).toEqual([])
    expect((await loadConfig(configDir)).activeProfile).toBe('shop')
  })
})

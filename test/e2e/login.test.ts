import {chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {isolatedHome, runGw, type Sandbox, sharedSandbox} from './helpers.js'

let sandbox: Sandbox
let liveSandbox: Sandbox

sharedSandbox((started) => void (sandbox = started), ['--merchant', 'ACME:acme-token-123'])
sharedSandbox((started) => void (liveSandbox = started), ['--mode', 'live', '--merchant', 'SHOP:shop-token-123'])

const configDir = (home: NodeJS.ProcessEnv) => join(home.XDG_CONFIG_HOME!, 'gw')
const plainFile = (file: string) =>
  `the token of profile acme is in a plain file, ${file}: anyone who can read it as you can use it. gw says so on every command that uses it; gw login --profile acme without --insecure-storage moves it into the OS keychain.`
const login = (home: NodeJS.ProcessEnv, profile: string, username: string, token: string, extra: string[] = []) =>
  runGw(['login', '--profile', profile, '--base-url', sandbox.url, '--username', username, '--token-stdin', '--insecure-storage', ...extra], {env: home, stdin: token + '\n'})

describe('gw login without a terminal', () => {
  it('takes the token from stdin, keeps it in a 0600 file with --insecure-storage, never in config.json, and warns at login and on every command that uses it', async () => {
    const home = isolatedHome()
    const result = await login(home, 'acme', 'ACME', 'acme-token-123', ['--json'])
    expect(result.code).toBe(0)
    expect(result.json).toEqual({name: 'acme', active: true, environment: 'sandbox', base_url: sandbox.url, username: 'ACME', read_only: false, secret: 'file'})
    const file = join(configDir(home), 'insecure-credentials.json')
    expect(result.stderr).toBe(
      `The gateway at ${sandbox.url} reports sandbox mode: profile acme is saved as a sandbox profile.\nLogged in: profile acme is active; its token is in a plain file.\n` +
        `Warning: ${plainFile(file)}\n`,
    )
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({acme: 'acme-token-123'})
    expect(readFileSync(join(configDir(home), 'config.json'), 'utf8')).not.toContain('acme-token-123')

    const status = await runGw(['status', '--json'], {env: home})
    expect(status.code).toBe(0)
    expect(status.json).toEqual({profile: 'acme', chosen_by: 'the active profile', environment: 'sandbox', base_url: sandbox.url, username: 'ACME', read_only: false, secret: file, proxy: 'none: no proxy is set'})
    expect(status.stdout + status.stderr).not.toContain('acme-token-123')
    // Every command that reads the token from the file says so, as docs/live-profiles.md promises, once: gw status too (it checks the token is there).
    expect(status.stderr).toBe(`Warning: ${plainFile(file)}\n`)
    const used = await runGw(['purchase', 'get', 'nothing-here'], {env: home})
    expect(used.code).toBe(5)
    expect(used.stderr.split('\n')[0]).toBe(`Warning: ${plainFile(file)}`)
    expect(used.stderr.match(/Warning:/g)).toHaveLength(1)
  })

  it('refuses a token file others can read (made 0666 or 0644), naming it and the fix, and sends nothing', async () => {
    const home = isolatedHome()
    expect((await login(home, 'acme', 'ACME', 'acme-token-123')).code).toBe(0)
    const file = join(configDir(home), 'insecure-credentials.json')
    for (const mode of [0o666, 0o644]) {
      chmodSync(file, mode)
      const result = await runGw(['purchase', 'get', 'nothing-here'], {env: home})
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(`Error: ${file} ${mode === 0o666 ? 'can be written by others than you (mode 0666): gw uses only what no one else can change, as ssh does' : 'holds a secret that others than you can read (mode 0644): it may be known already'}\nHint: ${mode === 0o666 ? `Check what it holds, then take the others' write permission away (chmod go-w ${file}).` : `Make it yours alone (chmod 600 ${file}) and replace the secret it holds.`}\n`)
    }
  })

  it('saves nothing when the gateway refuses the token: exit 4', async () => {
    const home = isolatedHome()
    const result = await login(home, 'acme', 'ACME', 'wrong-token')
    expect(result.code).toBe(4)
    expect(result.stderr).toContain(`Error: The gateway at ${sandbox.url} refused username ACME with that token: nothing was saved (HTTP 401`)
    expect(existsSync(join(configDir(home), 'config.json'))).toBe(false)
    expect(existsSync(join(configDir(home), 'insecure-credentials.json'))).toBe(false)
  })

  it('never takes a token as an argument, and without a terminal needs --token-stdin', async () => {
    const home = isolatedHome()
    const asFlag = await runGw(['login', '--profile', 'x', '--base-url', sandbox.url, '--username', 'TEST', '--token', 'TEST'], {env: home})
    expect(asFlag.code).toBe(2)
    expect(asFlag.stderr).toBe('Error: unknown flag: --token\nHint: Did you mean --token-stdin? See gw login --help for the flags and examples.\n')
    const noToken = await runGw(['login', '--profile', 'x', '--base-url', sandbox.url, '--username', 'TEST'], {env: home})
    expect(noToken.code).toBe(2)
    expect(noToken.stderr).toBe(
      'Error: The API token is needed: there is no terminal to ask on\nHint: Pipe it in with --token-stdin (a token is never taken as an argument: arguments stay in shell history).\n',
    )
    const noUrl = await runGw(['login', '--profile', 'x', '--username', 'TEST', '--token-stdin'], {env: home, stdin: 'TEST'})
    expect(noUrl.code).toBe(2)
    expect(noUrl.stderr).toContain('Error: --base-url is needed: there is no terminal to ask on')
  })

  it('without a keychain says so, names both ways out, and saves nothing', async () => {
    // A session bus that is not there: the Secret Service cannot be reached.
    const home = {...isolatedHome(), DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/gw-test-bus'}
    const result = await runGw(['login', '--profile', 'acme', '--base-url', sandbox.url, '--username', 'ACME', '--token-stdin'], {env: home, stdin: 'acme-token-123'})
    expect(result.code).toBe(4)
    expect(result.stderr).toMatch(/^Error: The OS keychain is not available: .+\n/)
    expect(result.stderr).toContain(
      'Hint: Either give the credentials in the environment (GW_USERNAME and GW_TOKEN, and GW_BASE_URL), or keep the token in a file only you can read: gw login --insecure-storage\n',
    )
    expect(existsSync(join(configDir(home), 'config.json'))).toBe(false)
  })
})

// A read that silently goes live is the habit Stripe's CLI avoids.
describe('gw login of a live profile without a terminal', () => {
  const loginLive = (home: NodeJS.ProcessEnv, extra: string[] = []) =>
    runGw(['login', '--profile', 'shop-live', '--base-url', liveSandbox.url, '--username', 'SHOP', '--token-stdin', '--insecure-storage', ...extra], {env: home, stdin: 'shop-token-123\n'})

  it('saves it without making it active, and says how to switch', async () => {
    const home = isolatedHome()
    expect((await login(home, 'acme', 'ACME', 'acme-token-123')).code).toBe(0)
    const result = await loginLive(home, ['--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({name: 'shop-live', active: false, environment: 'live'})
    expect(result.stderr).toContain('Profile shop-live was not made active: commands without --profile still use profile acme. Give --profile shop-live, or make it active with gw profile use shop-live.\n')
    expect(result.stderr).toContain('Logged in: profile shop-live is saved; its token is in a plain file')
    expect((await runGw(['status', '--json', '--no-check'], {env: home})).json).toMatchObject({profile: 'acme', environment: 'sandbox'})
    expect((await runGw(['status', '--json', '--no-check', '--profile', 'shop-live'], {env: home})).json).toMatchObject({profile: 'shop-live', environment: 'live'})
  })

  it('--activate makes it active', async () => {
    const home = isolatedHome()
    expect((await login(home, 'acme', 'ACME', 'acme-token-123')).code).toBe(0)
    const result = await loginLive(home, ['--activate', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({name: 'shop-live', active: true})
    expect(result.stderr).toContain('Logged in: profile shop-live is active')
    expect((await runGw(['status', '--json', '--no-check'], {env: home})).json).toMatchObject({profile: 'shop-live', environment: 'live'})
  })
})

describe('profiles', () => {
  it('switch with gw profile use; --profile, then GW_PROFILE, then GW_USERNAME/GW_TOKEN, then the active profile', async () => {
    const home = isolatedHome()
    expect((await login(home, 'test', 'TEST', 'TEST')).code).toBe(0)
    expect((await login(home, 'acme', 'ACME', 'acme-token-123')).code).toBe(0)
    const who = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const result = await runGw(['status', '--json', ...args], {env: {...home, ...env}})
      expect(result.code, result.stderr).toBe(0)
      const {profile, chosen_by, username} = result.json as Record<string, unknown>
      return {profile, chosen_by, username}
    }
    expect(await who([])).toEqual({profile: 'acme', chosen_by: 'the active profile', username: 'ACME'})

    const used = await runGw(['profile', 'use', 'test'], {env: home})
    expect(used.code).toBe(0)
    expect(used.stderr).toBe('Profile test is now active.\n')
    expect(await who([])).toEqual({profile: 'test', chosen_by: 'the active profile', username: 'TEST'})

    const env = {GW_PROFILE: 'acme', GW_USERNAME: 'ENVUSER', GW_TOKEN: 'env-token', GW_BASE_URL: sandbox.url}
    expect(await who(['--profile', 'test'], env)).toEqual({profile: 'test', chosen_by: '--profile', username: 'TEST'})
    expect(await who([], env)).toEqual({profile: 'acme', chosen_by: 'GW_PROFILE', username: 'ACME'})
    expect(await who([], {GW_USERNAME: 'ENVUSER', GW_TOKEN: 'env-token'})).toEqual({profile: null, chosen_by: 'GW_USERNAME and GW_TOKEN', username: 'ENVUSER'})

    const list = await runGw(['profile', 'list', '--json'], {env: home})
    expect(list.records).toEqual([
      {name: 'test', active: true, environment: 'sandbox', base_url: sandbox.url, username: 'TEST', read_only: false, secret: 'file'},
      {name: 'acme', active: false, environment: 'sandbox', base_url: sandbox.url, username: 'ACME', read_only: false, secret: 'file'},
    ])
    const unknown = await runGw(['profile', 'use', 'nope'], {env: home})
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toBe('Error: No profile named nope\nHint: Profiles: test, acme.\n')
  })

  it('gw logout removes the token and keeps the profile; gw profile remove drops both', async () => {
    const home = isolatedHome()
    await login(home, 'test', 'TEST', 'TEST')
    await login(home, 'acme', 'ACME', 'acme-token-123')
    const file = join(configDir(home), 'insecure-credentials.json')

    const out = await runGw(['logout', '--profile', 'acme'], {env: home})
    expect(out.code).toBe(0)
    expect(out.stderr).toBe(`Logged out of acme: token removed from ${file}\n`)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({test: 'TEST'})
    const after = await runGw(['purchase', 'get', 'any'], {env: home})
    expect(after.code).toBe(4)
    expect(after.stderr).toBe(`Error: Profile acme has no token in ${file}\nHint: Log in again: gw login --profile acme\n`)

    const removed = await runGw(['profile', 'remove', 'test'], {env: home})
    expect(removed.code).toBe(0)
    expect(existsSync(file)).toBe(false)
    expect((await runGw(['profile', 'list', '--json'], {env: home})).records).toEqual([
      {name: 'acme', active: true, environment: 'sandbox', base_url: sandbox.url, username: 'ACME', read_only: false, secret: 'file'},
    ])
  })

  it('gw sandbox start needs no keychain: the local profile holds the public demo token', async () => {
    const status = await runGw(['status', '--json'], {env: sandbox.home})
    expect(status.code).toBe(0)
    expect(status.json).toMatchObject({profile: 'local', username: 'TEST', secret: `${join(configDir(sandbox.home), 'config.json')} (the local gateway's public demo token)`})
  })
})

describe('a folder of locks under TMPDIR that another user of the machine made first', () => {
  /** gw login twice (the second finds config.json there) and gw profile use, with `gw-locks-<uid>` planted in their TMPDIR. */
  async function loginsWith(plant: (folder: string) => void) {
    const home = isolatedHome()
    const tmp = join(home.HOME!, 'tmp')
    mkdirSync(tmp)
    plant(join(tmp, `gw-locks-${process.getuid?.() ?? 0}`))
    const env = {...home, TMPDIR: tmp}
    for (const [profile, username, token] of [['acme', 'ACME', 'acme-token-123'], ['test', 'TEST', 'TEST']] as const) {
      const result = await login(env, profile, username, token)
      expect(result.code, result.stderr).toBe(0)
    }
    const used = await runGw(['profile', 'use', 'acme'], {env})
    expect(used.code, used.stderr).toBe(0)
    expect(used.stderr).toBe('Profile acme is now active.\n')
    // Their lock is the kernel's, on a file beside each file changed.
    expect(readdirSync(configDir(home)).sort()).toEqual(['config.json', 'config.json.lock.sqlite', 'insecure-credentials.json', 'insecure-credentials.json.lock.sqlite'])
  }

  it('a symlink to a folder of theirs stops neither gw login nor gw profile use', async () => {
    const theirs = mkdtempSync(join(tmpdir(), 'gw-theirs-'))
    await loginsWith((folder) => symlinkSync(theirs, folder))
    expect(readdirSync(theirs)).toEqual([])
  })

  it.skipIf(process.getuid?.() !== 0)('a folder another user owns, open to all, stops neither (skipped: needs root to chown; CI runs as root)', async () => {
    await loginsWith((folder) => {
      mkdirSync(folder)
      chownSync(folder, 65534, 65534)
      chmodSync(folder, 0o777)
    })
  })
})

describe('a base URL ending in /v1.0, as the vendor documents it', () => {
  it('gw login saves it without the suffix, saying so, and every request goes to /v1.0/..., never /v1.0/v1.0/...', async () => {
    const home = isolatedHome()
    const result = await runGw(['login', '--profile', 'acme', '--base-url', `${sandbox.url}/v1.0/`, '--username', 'ACME', '--token-stdin', '--insecure-storage'], {env: home, stdin: 'acme-token-123\n'})
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain(`The base URL is saved as ${sandbox.url}: gw adds /v1.0 to every path itself.\n`)
    expect(JSON.parse(readFileSync(join(configDir(home), 'config.json'), 'utf8')).profiles.acme.baseUrl).toBe(sandbox.url)
    const listed = await runGw(['purchase', 'list', '--limit', '1', '--verbose'], {env: home})
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stderr).toContain(`GET ${sandbox.url}/v1.0/purchases?`)
    expect(listed.stderr).not.toContain('/v1.0/v1.0')
  })

  it('GW_BASE_URL with it reaches the same paths', async () => {
    const env = {...isolatedHome(), GW_BASE_URL: `${sandbox.url}/v1.0`, GW_USERNAME: 'ACME', GW_TOKEN: 'acme-token-123'}
    const missing = await runGw(['purchase', 'get', 'no-such-purchase', '--verbose'], {env})
    expect(missing.code).toBe(5)
    expect(missing.stderr).toContain(`GET ${sandbox.url}/v1.0/purchases/no-such-purchase`)
    expect(missing.stderr).not.toContain('/v1.0/v1.0')
  })
})

// Credentials go in the token store, never in a base URL, which config.json keeps and
// gw status, --verbose and errors print.
describe('a base URL with credentials in it (user:token@)', () => {
  const withCredentials = () => sandbox.url.replace('http://', 'http://ACME:acme-token-123@')

  it('gw login refuses it, saving nothing and never echoing the token', async () => {
    const home = isolatedHome()
    const result = await runGw(['login', '--profile', 'acme', '--base-url', withCredentials(), '--username', 'ACME', '--token-stdin', '--insecure-storage'], {env: home, stdin: 'acme-token-123\n'})
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `Error: --base-url ${sandbox.url.replace('http://', 'http://***@')} holds credentials (user:token@): gw would keep them in plain text and print them (gw status, --verbose, errors)\n` +
        'Hint: Give the base URL alone: gw keeps the token in the token store (asked for, or --token-stdin), and --username names the user.\n',
    )
    expect(existsSync(configDir(home))).toBe(false)
  })

  it('GW_BASE_URL with them is refused, and nothing is sent', async () => {
    const env = {...isolatedHome(), GW_BASE_URL: withCredentials(), GW_USERNAME: 'ACME', GW_TOKEN: 'acme-token-123'}
    for (const args of [['status', '--no-check'], ['purchase', 'get', 'no-such-purchase', '--verbose']]) {
      const result = await runGw(args, {env})
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(`Error: GW_BASE_URL ${sandbox.url.replace('http://', 'http://***@')} holds credentials (user:token@)`)
      expect(result.stdout + result.stderr).not.toContain('acme-token-123')
    }
  })

  it('without a scheme (u:sekrit@host, which a URL parser reads as the scheme u:) too: exit 2 naming it, masked, nothing tried', async () => {
    const host = new URL(sandbox.url).host
    const env = {...isolatedHome(), GW_BASE_URL: `u:sekrit@${host}`, GW_USERNAME: 'ACME', GW_TOKEN: 'acme-token-123'}
    for (const args of [['status', '--no-check'], ['purchase', 'get', 'x', '--verbose']]) {
      const result = await runGw(args, {env})
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(new RegExp(`^Error: GW_BASE_URL \\*\\*\\*@${host.replaceAll('.', '\\.')} holds credentials \\(user:token@\\)`))
      expect(result.stdout + result.stderr).not.toContain('sekrit')
    }
    const login = await runGw(['login', '--profile', 'u', '--base-url', `u:sekrit@${host}`, '--username', 'ACME', '--token-stdin', '--insecure-storage'], {env: isolatedHome(), stdin: 'acme-token-123\n'})
    expect(login.code).toBe(2)
    expect(login.stderr).toMatch(/^Error: --base-url \*\*\*@\S+ holds credentials/)
    expect(login.stderr).not.toContain('sekrit')
  })

  it("a profile saved with them (by hand) is refused when used, and gw profile list shows them hidden", async () => {
    const home = isolatedHome()
    mkdirSync(configDir(home), {recursive: true, mode: 0o700})
    writeFileSync(join(configDir(home), 'config.json'), JSON.stringify({activeProfile: 'old', profiles: {old: {environment: 'sandbox', baseUrl: withCredentials(), username: 'ACME', publicToken: 'x'}}}), {mode: 0o600})
    const status = await runGw(['status', '--json'], {env: home})
    expect(status.code).toBe(2)
    expect(status.stderr).toContain(`The base URL of profile old, ${sandbox.url.replace('http://', 'http://***@')} holds credentials`)
    expect(status.stderr).toContain('Hint: Log in again with the base URL alone, the token kept in the token store: gw login --profile old --base-url URL (without user:token@).')
    const listed = await runGw(['profile', 'list', '--json'], {env: home})
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.records).toMatchObject([{name: 'old', base_url: sandbox.url.replace('http://', 'http://***@')}])
    for (const result of [status, listed]) expect(result.stdout + result.stderr).not.toContain('acme-token-123')
  })
})

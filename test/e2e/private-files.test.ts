import {chmodSync, mkdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {writeTemp} from './batch-helpers.js'
import {cardArgs, isolatedHome, ref, runGw, type Sandbox, sharedSandbox} from './helpers.js'

// A umask of 022 left gw's files readable by every user of the
// machine, a data folder 0755 with its request log 0644 (merchants, references, masked cards), and
// gw went on writing to them as they were. gw makes its own files and folders the user's alone as it
// opens them (docs/platforms.md).

const modeOf = (path: string) => statSync(path).mode & 0o777

describe.skipIf(process.platform === 'win32')("gw's files left readable by others are made the user's alone", () => {
  let sandbox: Sandbox
  let token: string
  sharedSandbox(async (started) => {
    sandbox = started
    token = ((await sandbox.gw(['card', 'tokenize', ...cardArgs(), '--json'])).json as {token: string}).token
  })

  it('the data folder (0755) and the request log and output it holds (0644): 0700 and 0600 once gw sandbox start opens them', async () => {
    const home = isolatedHome()
    const data = join(home.XDG_DATA_HOME!, 'gw')
    mkdirSync(data, {recursive: true})
    for (const name of ['sandbox-requests.ndjson', 'sandbox.log']) writeFileSync(join(data, name), '')
    chmodSync(data, 0o755)
    for (const name of ['sandbox-requests.ndjson', 'sandbox.log']) chmodSync(join(data, name), 0o644)
    const started = await runGw(['sandbox', 'start', '--detach', '--port', '0'], {env: home})
    expect(started.code, started.stderr).toBe(0)
    try {
      expect(modeOf(data)).toBe(0o700)
      expect(modeOf(join(data, 'sandbox-requests.ndjson'))).toBe(0o600)
      expect(modeOf(join(data, 'sandbox.log'))).toBe(0o600)
    } finally {
      await runGw(['sandbox', 'stop'], {env: home})
    }
  })

  it("a journal of the user's own left 0644: 0600 once a batch opens it again", async () => {
    const rows = writeTemp('purchases.ndjson', `${JSON.stringify({card_token: token, amount: 1000, reference: ref('private')})}\n`)
    const journal = join(isolatedHome().HOME!, 'purchases.journal')
    expect((await runGw(['purchase', 'create', '--input', rows, '--journal', journal], {env: sandbox.env()})).code).toBe(0)
    chmodSync(journal, 0o644)
    const again = await runGw(['purchase', 'create', '--input', rows, '--journal', journal], {env: sandbox.env()})
    expect(again.code, again.stderr).toBe(0)
    expect(modeOf(journal)).toBe(0o600)
  })

  it('the config folder (0755): 0700 once gw writes a profile into it', async () => {
    const home = isolatedHome()
    const config = join(home.XDG_CONFIG_HOME!, 'gw')
    mkdirSync(config, {recursive: true})
    chmodSync(config, 0o755)
    const login = await runGw(['login', '--profile', 'shop', '--base-url', sandbox.url, '--username', 'TEST', '--token-stdin', '--insecure-storage'], {env: home, stdin: 'TEST\n'})
    expect(login.code, login.stderr).toBe(0)
    expect(modeOf(config)).toBe(0o700)
    expect(modeOf(join(config, 'config.json'))).toBe(0o600)
  })
})

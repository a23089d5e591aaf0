import {spawnSync} from 'node:child_process'
import {mkdtempSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {CountingProxy} from '../counting-proxy.js'
import {proxiedGateway, writeTemp} from './batch-helpers.js'
import {isolatedHome, ref, runGw, type Sandbox} from './helpers.js'

// What a QA pass found on the way: a device or a named pipe where gw wants a regular
// file of its own got the hint to chmod it (harmful for /dev/null) or hung gw; a journal gw could
// not open said rows stopped that never started; a secret file of the user's that others can read
// was taken for --merchant @FILE, though --auth-file refuses it.

let sandbox: Sandbox
let proxy: CountingProxy
let token: string
proxiedGateway((gateway) => void ({sandbox, proxy, token} = gateway))

const rows = () => writeTemp('purchases.ndjson', `${JSON.stringify({card_token: token, amount: 1000, reference: ref('dev')})}\n`)
const folder = () => mkdtempSync(join(tmpdir(), 'gw-special-'))

describe.skipIf(process.platform === 'win32')('a device or a named pipe where gw wants a regular file', () => {
  it.each([
    ['--journal', () => ['purchase', 'create', '--input', rows(), '--journal', '/dev/null'], ''],
    ['--save', () => ['listen', '--port', '0', '--no-register', '--save', '/dev/null'], '--save /dev/null cannot be used: '],
    ['--state', () => ['sandbox', 'start', '--port', '0', '--state', '/dev/null'], 'The state file cannot be used: '],
  ])('%s /dev/null: refused as a character device, never with a hint to chmod it', async (_, args, prefix) => {
    const result = await runGw(args(), {env: sandbox.env({...isolatedHome(), GW_BASE_URL: proxy.url})})
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`Error: ${prefix}/dev/null is a character device, not a regular file: gw reads and writes only regular files here\nHint: Give the path of a regular file of your own (gw makes it where there is none).\n`)
    expect(proxy.postCount()).toBe(0)
  })

  it('gw listen --save FIFO: refused at once, without waiting for a reader of the pipe', async () => {
    const pipe = join(folder(), 'events.pipe')
    expect(spawnSync('mkfifo', [pipe]).status).toBe(0)
    const result = await runGw(['listen', '--port', '0', '--no-register', '--save', pipe], {env: isolatedHome()})
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`Error: --save ${pipe} cannot be used: ${pipe} is a named pipe (FIFO), not a regular file: gw reads and writes only regular files here\nHint: Give the path of a regular file of your own (gw makes it where there is none).\n`)
    expect(statSync(pipe).isFIFO()).toBe(true)
  })
})

describe('a journal gw cannot open', () => {
  it.skipIf(process.platform !== 'linux')('--journal /proc/self/status (Linux only, where /proc is): says nothing was sent, and nothing was', async () => {
    const result = await runGw(['purchase', 'create', '--input', rows(), '--journal', '/proc/self/status'], {env: sandbox.env({GW_BASE_URL: proxy.url})})
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^Error: The batch journal \/proc\/self\/status cannot be used \(E[A-Z]+\): nothing was sent\n/)
    expect(result.stderr).not.toContain('no more rows')
    expect(proxy.postCount()).toBe(0)
  })
})

describe('--auth-file that is not there', () => {
  it('says so, with a command that makes one no one else can read, the password in single quotes (no $ expanded)', async () => {
    const file = join(folder(), 'hooks.auth')
    const result = await runGw(['listen', '--port', '0', '--no-register', '--auth-file', file], {env: isolatedHome()})
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`Error: --auth-file ${file} cannot be read: no such file\nHint: Give a file, made with: (umask 077; printf '%s\\n' 'hooks:s3cret' > hooks.auth)\n`)
  })
})

describe('--merchant @FILE holds tokens: refused, as --auth-file is, when others can read it', () => {
  it.skipIf(process.platform === 'win32')("the user's own file at 0644: refused, the gateway not started", async () => {
    const file = join(folder(), 'merchants.txt')
    writeFileSync(file, 'ACME:s3cret\n', {mode: 0o644})
    const result = await runGw(['sandbox', 'start', '--port', '0', '--merchant', `@${file}`], {env: isolatedHome()})
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`Error: --merchant @${file} cannot be used: ${file} holds a secret that others than you can read (mode 0644): it may be known already\nHint: Make it yours alone (chmod 600 ${file}) and replace the secret it holds.\n`)
  })
})

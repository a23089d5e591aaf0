import {spawn} from 'node:child_process'
import {mkdtempSync, readdirSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {CountingProxy} from '../counting-proxy.js'
import {proxiedGateway} from './batch-helpers.js'
import {baseEnv, GW, ref, type Sandbox} from './helpers.js'

// A stdin batch keeps its rows in a file to read them twice; a kill -9 must leave no
// copy of them in TMPDIR (lib/private-copy.ts: unlinked on Linux, swept by the next batch elsewhere).
let sandbox: Sandbox
let proxy: CountingProxy
let token: string
proxiedGateway((gateway) => void ({sandbox, proxy, token} = gateway))

describe('a stdin batch killed with SIGKILL', () => {
  it('leaves no copy of its rows in TMPDIR, and had none there by name while it ran (Linux)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'gw-tmpdir-'))
    const rows = Array.from({length: 20}, () => JSON.stringify({card_token: token, amount: 1000, reference: ref('stdin-copy')})).join('\n') + '\n'
    const child = spawn(process.execPath, [GW, 'purchase', 'create', '--input', '-', '--concurrency', '1'], {env: baseEnv(sandbox.env({GW_BASE_URL: proxy.url, TMPDIR: tmp})), stdio: ['pipe', 'ignore', 'ignore']})
    // The first purchase is on its way: the rows were kept and read, and gw is in the middle of the batch.
    const whileRunning = proxy.post(1).then(() => {
      const listed = readdirSync(tmp)
      child.kill('SIGKILL')
      return listed
    })
    child.stdin!.end(rows)
    const [signal, seen] = await Promise.all([new Promise((resolve) => child.on('close', (_, signal) => resolve(signal))), whileRunning])
    expect(signal).toBe('SIGKILL')
    if (process.platform === 'linux') expect(seen).toEqual([])
    expect(readdirSync(tmp)).toEqual([])
  })
})

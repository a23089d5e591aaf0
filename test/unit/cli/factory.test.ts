import {createServer} from 'node:net'
import {describe, expect, it} from 'vitest'
import type {Target} from '../../../src/auth/resolve.js'
import {createFactory} from '../../../src/cli/factory.js'
import {globalsInArgv} from '../../../src/cli/global-flags.js'
import {confirmBatch} from '../../../src/cli/live-safety.js'
import {UnreachableError} from '../../../src/errors.js'
import {testIo} from '../../test-io.js'
import type {Prompter} from '../../../src/output/prompter.js'

/** A port that refuses connections: a request through the guard ends there, not sent. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const {port} = server.address() as {port: number}
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function liveFactory(answers: string[]) {
  const live: Target & {token: string} = {
    baseUrl: `http://127.0.0.1:${await closedPort()}`,
    username: 'SHOP',
    token: 'secret',
    environment: 'live',
    profileName: 'shop-live',
    source: 'active',
    secretStorage: 'keychain',
    secretLocation: 'gw/shop-live',
  }
  const asked: string[] = []
  const prompter = {text: async (question: string) => (asked.push(question), answers.shift() ?? '')} as unknown as Prompter
  const context = {commandName: 'customer delete', columns: [], argv: [], env: {}, config: {configDir: '/nonexistent', dataDir: '/nonexistent', cacheDir: '/nonexistent', version: '0.0.0'}}
  const f = createFactory(context, {io: testIo({tty: true}), target: async () => live, credentials: async () => live, proxy: async () => undefined, prompter: async () => prompter})
  return {f, asked}
}

describe('the Factory: the client it makes passes the profile guard', () => {
  it('on a live profile a delete is typed back before it is sent', async () => {
    const {f, asked} = await liveFactory(['071-C-1'])
    const client = await f.client()
    await expect(client.customers.delete('071-C-1')).rejects.toBeInstanceOf(UnreachableError)
    expect(asked).toEqual(['LIVE: type the id (071-C-1) to confirm gw customer delete'])
    await f.close()
  })

  it("a batch's client, built with its one confirmation, sends its rows unasked; the command's own still asks", async () => {
    const {f, asked} = await liveFactory(['3', '071-C-2'])
    const target = await f.target()
    const confirmed = await confirmBatch({target, commandId: 'refund create', yes: false, io: f.io, prompter: () => f.prompter(), plan: async () => ({noun: 'refund', rows: 3, totals: '30.00 AUD'})})
    const batch = await f.client(confirmed)
    expect(await f.client(confirmed)).toBe(batch)
    await expect(batch.customers.delete('071-C-1')).rejects.toBeInstanceOf(UnreachableError)
    expect(asked).toEqual(['LIVE: about to send 3 refunds (30.00 AUD). Type the number of rows (3) to confirm'])
    await expect((await f.client()).customers.delete('071-C-2')).rejects.toBeInstanceOf(UnreachableError)
    expect(asked.at(-1)).toBe('LIVE: type the id (071-C-2) to confirm gw customer delete')
    await f.close()
  })
})

describe('the global flags before a parse', () => {
  it('are what argv says of --json and --no-input, the rest off', () => {
    expect(globalsInArgv(['order-1', '--json', '--no-input'])).toEqual({json: true, verbose: false, yes: false, 'no-input': true})
    expect(globalsInArgv([])).toEqual({json: false, verbose: false, yes: false, 'no-input': false})
  })
})

import {beforeAll, expect, it} from 'vitest'
import {apiRequestsSince, describeInBothDialects, requestLogCursor, type Sandbox, sandboxForFile} from './helpers.js'

// Issue 69: gw webhook list printed the oldest hook first, where its help says newest first; -L 1
// gave the oldest and --oldest-first changed nothing. Web hooks carry no dates, and the local
// gateway lists them oldest first in both dialects (as the recordings of 2017 and 2019 do): gw
// reads them backwards. Against each dialect of the local gateway.
let sandbox: Sandbox
sandboxForFile((started) => void (sandbox = started))

const NAMES = ['hook-1', 'hook-2', 'hook-3', 'hook-4']

beforeAll(async () => {
  // Made one after another, straight at the gateway: hook-4 is the newest.
  for (const name of NAMES) {
    const response = await fetch(`${sandbox.url}/v1.0/web_hooks`, {
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: `Basic ${Buffer.from('TEST:TEST').toString('base64')}`},
      body: JSON.stringify({name, address: `http://127.0.0.1:9/${name}`, events: '*', mode: 'Test'}),
    })
    expect(response.status).toBe(200)
  }
})

/** The names gw lists, in its order, and the requests it sent for them. */
async function listed(...args: string[]): Promise<{names: string[]; requests: number}> {
  const cursor = await requestLogCursor(sandbox)
  const result = await sandbox.gw(['webhook', 'list', ...args, '--json'])
  expect(result.code, result.stderr).toBe(0)
  return {names: result.records.map((hook) => (hook as {name: string}).name), requests: (await apiRequestsSince(sandbox, cursor)).length}
}

describeInBothDialects('gw webhook list, in the order its help says', () => {
  it.each([
    [[], ['hook-4', 'hook-3', 'hook-2', 'hook-1']],
    [['-L', '1'], ['hook-4']],
    [['--limit', '2'], ['hook-4', 'hook-3']],
    [['--oldest-first'], NAMES],
    [['--oldest-first', '-L', '1'], ['hook-1']],
    [['--all'], ['hook-4', 'hook-3', 'hook-2', 'hook-1']],
  ])('%j lists %j, in one request', async (args, names) => {
    expect(await listed(...args)).toEqual({names, requests: 1})
  })
})

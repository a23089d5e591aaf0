import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {cardArgs, isolatedHome, ref, startSandbox} from './helpers.js'
import {cvvKeysIn, freshCardNumber, fullWidth, grouped, wholeCardNumbersIn} from './card-number-helpers.js'
import {chargeSuccessful, startListen} from './listen-helpers.js'

// What the local gateway and gw listen write and print, fed card numbers grouped every way people
// type them (tabs, dots, underscores, slashes, full-width digits) and CVVs under every name
//: scanned for a whole card number or a CVV, by a scan written apart from the
// masker (card-number-helpers.ts).

const AUTH = {authorization: 'Basic ' + Buffer.from('TEST:TEST').toString('base64'), 'content-type': 'application/json'}
const CVVS = ['987', '654', '321', '135']

/** Texts holding a fresh card number each, one way of writing it apiece. */
function cardTexts(): Record<string, string> {
  return {
    tab: grouped(freshCardNumber(), '\t'),
    dot: `ord ${grouped(freshCardNumber(), '.')}`,
    underscore: `x${grouped(freshCardNumber(), '_')}y`,
    slash: grouped(freshCardNumber(), '/'),
    wide: `ref-${fullWidth(freshCardNumber())}`,
    wideSpaced: grouped(fullWidth(freshCardNumber()), '\u3000'),
  }
}

function expectNoCardData(what: string, text: string): void {
  expect(wholeCardNumbersIn(text), what).toEqual([])
  expect(cvvKeysIn(text), what).toEqual([])
  // A CVV's value standing alone (not a part of an id, an authorization code or a time).
  for (const cvv of CVVS) expect(text, what).not.toMatch(new RegExp(`(?<![\\dA-Za-z])${cvv}(?![\\dA-Za-z])`))
}

describe("the local gateway's state file, request log and output keep no card number whole and no CVV", () => {
  it('however the numbers are grouped, in references, holders, descriptions, metadata and paths; a reference as sent still finds its record after a restart', async () => {
    const home = isolatedHome()
    const state = join(home.HOME!, 'gateway.json')
    const texts = cardTexts()
    const reference = `${ref('at-rest')}z-${grouped(freshCardNumber(), '.')}`
    let gateway = await startSandbox(['--state', state], home)
    try {
      // gw sends some, with a CVV in the metadata.
      const made = await gateway.gw(['purchase', 'create', '--amount', '1000', '--reference', reference, ...cardArgs().slice(2), '--card-holder', texts.tab!, '--metadata', `cvv=${CVVS[0]}`, '--metadata', `note=${texts.dot}`, '--json'])
      expect(made.code, made.stderr).toBe(0)
      expectNoCardData('gw purchase create', made.stdout + made.stderr)
      // A merchant's app sends the rest as it likes.
      const body = {
        amount: 1000,
        reference: `${ref('at-rest')}z-${texts.wide}`,
        card_holder: texts.underscore,
        card_number: '4242424242424242',
        card_expiry: '12/2030',
        cvv: '123',
        metadata: {CVV2: CVVS[1], 'card[cvv]': CVVS[2], card_cvc: CVVS[3], slash: texts.slash, spaced: texts.wideSpaced},
      }
      const answer = await fetch(`${gateway.url}/v1.0/purchases`, {method: 'POST', headers: AUTH, body: JSON.stringify(body)})
      expect(answer.status).toBe(200)
      // Looked up by the reference as sent, its card number in the path percent-encoded.
      for (const name of [reference, body.reference]) expect((await fetch(`${gateway.url}/v1.0/purchases/${encodeURIComponent(name)}`, {headers: AUTH})).status).toBe(200)
      const plan = await gateway.gw(['plan', 'create', '--name', 'Gold', '--amount', '2500', '--reference', ref('plan'), '--description', `card ${texts.slash} declined`])
      expect(plan.code, plan.stderr).toBe(0)
      const logs = await gateway.gw(['sandbox', 'logs', '--json', '--limit', '20'])
      expect(logs.code, logs.stderr).toBe(0)
      expectNoCardData('gw sandbox logs', logs.stdout + logs.stderr)
      // Each change is on disk before its answer, in the file or in SQLite's write-ahead log beside it.
      const written = [state, `${state}-wal`].map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : '')).join('')
      expect(written).toContain('"reference":"at-rest-')
      expectNoCardData('the state file while it runs', written)
    } finally {
      await gateway.stop()
    }
    expectNoCardData('the state file', readFileSync(state, 'utf8'))
    const requestLog = readFileSync(join(home.HOME!, 'gateway.requests.ndjson'), 'utf8')
    expect(requestLog.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(5)
    expectNoCardData('the request log', requestLog)
    const own = join(home.XDG_DATA_HOME!, 'gw', 'sandbox.log')
    if (existsSync(own)) expectNoCardData("the local gateway's log", readFileSync(own, 'utf8'))

    gateway = await startSandbox(['--state', state], home)
    try {
      const found = await fetch(`${gateway.url}/v1.0/purchases/${encodeURIComponent(reference)}`, {headers: AUTH}).then((r) => r.json() as Promise<{response: Record<string, unknown>}>)
      expect(found.response).toMatchObject({reference: expect.stringMatching(/\d{6}X{6}\d{4}$/), metadata: {note: expect.stringMatching(/^ord \d{6}X{6}\d{4}$/)}})
      expect(found.response.metadata).not.toHaveProperty('cvv')
    } finally {
      await gateway.stop()
    }
  })
})

describe('gw listen prints and saves no card number whole and no CVV', () => {
  it.each([
    ['--json', ['--json']],
    ['its lines for people', []],
  ])('%s, and its --save file', async (_, args) => {
    const home = isolatedHome()
    const file = join(home.HOME!, 'events.ndjson')
    const texts = cardTexts()
    const listener = await startListen([...args, '--save', file], {env: home})
    try {
      const delivery = chargeSuccessful()
      const record = delivery.payload[0]!.response.response as Record<string, unknown>
      Object.assign(record, {card_holder: texts.tab, reference: texts.wide, description: texts.dot, card_number: grouped(freshCardNumber(), '_'), cvv: CVVS[0], metadata: {'card[cvv]': CVVS[1], note: texts.slash, spaced: texts.wideSpaced}})
      expect(await listener.post(delivery, {'x-note': texts.underscore!})).toBe(200)
      await listener.waitForLines(1)
    } finally {
      await listener.stop('SIGINT')
    }
    const saved = readFileSync(file, 'utf8')
    expect(saved).toContain('"event":"charge:successful"')
    expectNoCardData('the --save file', saved)
    expectNoCardData('what it printed', listener.stdout() + listener.stderr())
  })
})

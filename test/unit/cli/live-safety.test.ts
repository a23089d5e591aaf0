import {describe, expect, it} from 'vitest'
import {cardFromJson, readCard} from '../../../src/cli/card-input.js'
import {allEndpoints, endpoints} from '../../../src/api/endpoints.js'
import {announceLive, confirmBatch, confirmation, confirmLive, liveMarker, refuseWhenReadOnly, requestGuard} from '../../../src/cli/live-safety.js'
import {testIo} from '../../test-io.js'
import type {Prompter} from '../../../src/output/prompter.js'
import type {Target} from '../../../src/auth/resolve.js'
import {UsageError} from '../../../src/errors.js'
import {expectReject} from '../../expect-error.js'

/**
 * Answers questions in order and records them, so a test sees what was asked; as the terminal's
 * prompter does, an answer its validate refuses is said (`refused`) and the question answered again.
 */
function scripted(answers: string[]): {prompter: () => Promise<Prompter>; asked: string[]; refused: string[]} {
  const asked: string[] = []
  const refused: string[] = []
  const next = async (message: string) => {
    asked.push(message)
    const answer = answers.shift()
    if (answer === undefined) throw new Error(`unexpected question: ${message}`)
    return answer
  }
  const text: Prompter['text'] = async (message, {validate} = {}) => {
    for (;;) {
      const answer = await next(message)
      const verdict = validate ? await validate(answer) : true
      if (verdict === true) return answer
      refused.push(verdict)
    }
  }
  const prompter: Prompter = {text, secret: (message) => next(message), choose: async (message) => (await next(message)) as never}
  return {prompter: async () => prompter, asked, refused}
}

const liveTarget: Target = {baseUrl: 'https://gw.example', username: 'SHOP', environment: 'live', profileName: 'shop', source: 'active', secretStorage: 'keychain', secretLocation: 'keychain'}

describe('confirmation', () => {
  it.each([
    // As shown and nothing else: never `10` or `1000`, each of which reads as another amount in the other unit.
    ['amount', {amount: 1000, currency: 'AUD'}, '10.00 AUD', ['10.00 AUD', '10.00']],
    ['amount', {amount: 1050, currency: 'AUD'}, '10.50 AUD', ['10.50 AUD', '10.50']],
    ['amount', {amount: 1000, currency: 'JPY'}, '1000 JPY', ['1000 JPY', '1000']],
    // One unit in every summary: major units, the currency said not to be known, never `250 (minor units)`.
    ['amount', {amount: 250}, '2.50 (currency not known)', ['2.50']],
    ['amount', {amount: 43750, currency: 'aud'}, '437.50 AUD', ['437.50 AUD', '437.50']],
    ['id', {id: 'cus_1'}, 'cus_1', ['cus_1']],
  ] as const)('%s %o is shown as %s', (kind, values, shown, accepted) => {
    expect(confirmation(kind, values)).toEqual({shown, accepted})
  })

  it('a record named by its reference is confirmed by the reference given, or its id', async () => {
    const expected = confirmation('id', {id: '071-P-52NRCGCF', key: 'tb-2'})
    expect(expected).toEqual({shown: '071-P-52NRCGCF or tb-2', accepted: ['071-P-52NRCGCF', 'tb-2'], what: 'the id or reference'})
    const typed = scripted(['tb-3', 'TB-2'])
    await confirmLive({commandId: 'purchase void', kind: 'id', expected, yes: false, io: testIo({tty: true}), prompter: typed.prompter})
    expect(typed.asked).toEqual(['LIVE: type the id or reference (071-P-52NRCGCF or tb-2) to confirm gw purchase void', 'LIVE: type the id or reference (071-P-52NRCGCF or tb-2) to confirm gw purchase void'])
    expect(typed.refused).toEqual(['"tb-3" does not match 071-P-52NRCGCF or tb-2; type it again (Ctrl-C to stop).'])
    // Given as its id, the id alone.
    expect(confirmation('id', {id: '071-P-52NRCGCF', key: '071-P-52NRCGCF'})).toEqual({shown: '071-P-52NRCGCF', accepted: ['071-P-52NRCGCF']})
  })
})

describe('confirmLive', () => {
  const expected = confirmation('amount', {amount: 1000, currency: 'AUD'})
  it('goes ahead with --yes and asks nothing', async () => {
    const {prompter, asked} = scripted([])
    await confirmLive({commandId: 'purchase create', kind: 'amount', expected, yes: true, io: testIo(), prompter})
    expect(asked).toEqual([])
  })

  it('without a terminal and without --yes refuses with exit 2', async () => {
    await expect(confirmLive({commandId: 'purchase create', kind: 'amount', expected, yes: false, io: testIo(), prompter: scripted([]).prompter})).rejects.toMatchObject({
      exitCode: 2,
      message: 'gw purchase create on a live profile must be confirmed, and there is no terminal to ask on: nothing was sent',
      hint: 'Add --yes to confirm it.',
    })
  })

  it.each(['10.00', '10.00 aud', ' 10.00  AUD '])('on a terminal goes ahead when the amount is typed back as %j', async (typed) => {
    const ok = scripted([typed])
    await confirmLive({commandId: 'purchase create', kind: 'amount', expected, yes: false, io: testIo({tty: true}), prompter: ok.prompter})
    expect(ok.asked).toEqual(['LIVE: type the amount (10.00 AUD) to confirm gw purchase create'])
  })

  // The hundredfold slip: 500.00 AUD and 5.00 AUD are each confirmed as shown, and `500` confirms neither.
  it.each([
    [50000, '500', '500.00'],
    [500, '500', '5.00'],
    [50000, '50000', '500.00 AUD'],
    [500, '5', '5.00 aud'],
  ])('%d cents: %j is refused and asked again, %j goes ahead', async (amount, wrong, right) => {
    const io = testIo({tty: true})
    const both = scripted([wrong, right])
    const expected = confirmation('amount', {amount, currency: 'AUD'})
    await confirmLive({commandId: 'purchase create', kind: 'amount', expected, yes: false, io, prompter: both.prompter})
    expect(both.asked).toHaveLength(2)
    expect(both.refused).toEqual([`"${wrong}" does not match ${expected.shown}; type it as shown, ${expected.accepted[1]} (Ctrl-C to stop).`])
    expect(io.stderr()).toBe('')
  })

  it('a mismatch asks the confirmation alone again; three refuse with exit 2', async () => {
    const io = testIo({tty: true})
    const second = scripted(['100.00', '10.00'])
    await confirmLive({commandId: 'purchase create', kind: 'amount', expected, yes: false, io, prompter: second.prompter})
    expect(second.asked).toHaveLength(2)
    expect(second.refused).toEqual(['"100.00" does not match 10.00 AUD; type it as shown, 10.00 (Ctrl-C to stop).'])
    await expect(confirmLive({commandId: 'purchase create', kind: 'amount', expected, yes: false, io: testIo({tty: true}), prompter: scripted(['1', '2', '100.00']).prompter})).rejects.toMatchObject({
      exitCode: 2,
      message: '"100.00" does not match 10.00 AUD: nothing was sent',
      hint: 'Run it again and type the amount as shown, 10.00, or add --yes.',
    })
  })
})

describe('read-only and LIVE', () => {
  it('a read-only profile refuses with exit 6', () => {
    expect(() => refuseWhenReadOnly({...liveTarget, profile: {environment: 'live', baseUrl: 'x', username: 'SHOP', readOnly: true}}, 'refund create')).toThrow(
      expect.objectContaining({exitCode: 6, message: 'Profile shop is read-only and gw refund create changes something at the gateway: nothing was sent'}),
    )
    expect(() => refuseWhenReadOnly(liveTarget, 'refund create')).not.toThrow()
  })

  it('names the profile and the gateway', () => {
    expect(liveMarker(liveTarget)).toBe('LIVE  profile shop at https://gw.example: real money, real cards')
    expect(liveMarker({...liveTarget, profileName: undefined})).toBe('LIVE  credentials from GW_USERNAME/GW_TOKEN at https://gw.example: real money, real cards')
  })

  it.each([
    ['a live target at a terminal', liveTarget, true, 'LIVE  profile shop at https://gw.example: real money, real cards\n'],
    ['a live target, stderr piped', liveTarget, false, ''],
    ['a sandbox target at a terminal', {...liveTarget, environment: 'sandbox'} as Target, true, ''],
  ])('is said on stderr for %s, and only there', async (_, target, tty, said) => {
    const io = testIo({tty})
    await announceLive(io, target)
    expect(io.stderr()).toBe(said)
    expect(io.stdout()).toBe('')
  })
})

describe('readCard', () => {
  const context = (live: boolean, tty = false, answers: string[] = [], stdin = '') => ({live, io: testIo({tty, stdin}), prompter: scripted(answers).prompter, commandId: 'purchase create'})

  it('on a live profile refuses the number and CVV from argv, with exit 2 and the ways to give them', async () => {
    await expect(readCard({'card-holder': 'J', 'card-number': '4242424242424242', 'card-expiry': '12/2030', cvv: '123'}, context(true))).rejects.toMatchObject({
      exitCode: 2,
      message: '--card-number and --cvv cannot be given on the command line with a live profile: arguments stay in shell history and show in ps',
      hint: expect.stringContaining('gw purchase create ... --card - < card.json'),
    })
    await expect(readCard({'card-token': 'tok', cvv: '123'}, context(true))).rejects.toMatchObject({exitCode: 2, message: expect.stringMatching(/^--cvv cannot be given/)})
  })

  it('takes argv on a sandbox profile, stdin JSON anywhere, and asks on a terminal with the secrets masked', async () => {
    expect(await readCard({'card-holder': 'J', 'card-number': '4242424242424242', 'card-expiry': '12/2030'}, context(false))).toEqual({card_holder: 'J', card_number: '4242424242424242', card_expiry: '12/2030'})
    const json = '{"card_holder":"Jane","card_number":"4242 4242 4242 4242","card_expiry":"12/2030","cvv":"123"}'
    expect(await readCard({card: '-'}, context(true, false, [], json))).toEqual({card_holder: 'Jane', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
    const asking = scripted(['Jane', '4242424242424242', '12/2030', '123'])
    expect(await readCard({}, {...context(true, true), prompter: asking.prompter})).toEqual({card_holder: 'Jane', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
    expect(asking.asked).toEqual(['Name on the card', 'Card number', 'Expiry (MM/YY)', 'CVV'])
    expect(await readCard({}, context(true, false))).toBeUndefined()
    expect(await readCard({'card-token': 'tok'}, context(true, true))).toBeUndefined()
  })

  it.each([
    ['not json', '--card - expects the card as one JSON object on stdin, and what came is not JSON'],
    ['[]', '--card - expects a JSON object on stdin'],
    ['{"card_number":"4242424242424242","card_expiry":"12/2030"}', 'the card on stdin needs "card_holder" as a string'],
    ['{"card_holder":"J","card_number":"4242424242424241","card_expiry":"12/2030"}', 'the card on stdin: --card-number fails the Luhn check: a digit is wrong or missing'],
    ['{"card_holder":"J","card_number":"4242424242424242","card_expiry":"12/2030","cvv":"12"}', 'the card on stdin: --cvv must be 3 or 4 digits'],
  ])('stdin %s is refused: %s', (text, message) => {
    expect(() => cardFromJson(text)).toThrow(expect.objectContaining({exitCode: 2, message}))
  })
})

describe('requestGuard: every request passes the profile rules by its endpoint facts', () => {
  const readOnly: Target = {...liveTarget, environment: 'sandbox', profile: {environment: 'sandbox', baseUrl: 'x', username: 'SHOP', readOnly: true}}
  const sandbox: Target = {...liveTarget, environment: 'sandbox'}

  it('a read-only profile refuses every endpoint that writes, and lets every read through', async () => {
    const guard = requestGuard({target: readOnly, commandId: 'api', yes: true, io: testIo(), prompter: scripted([]).prompter})
    for (const endpoint of allEndpoints()) {
      const outcome = guard(endpoint, {params: {id: 'x'}, body: {}})
      if (endpoint.method === 'GET') await expect(outcome).resolves.toBeUndefined()
      else await expect(outcome).rejects.toMatchObject({exitCode: 6, message: 'Profile shop is read-only and gw api changes something at the gateway: nothing was sent'})
    }
  })

  it('a live profile has the amount typed back, from the body, before money moves', async () => {
    const {prompter, asked} = scripted(['12.50'])
    const guard = requestGuard({target: liveTarget, commandId: 'purchase create', yes: false, io: testIo({tty: true}), prompter})
    await guard(endpoints.purchases.create, {params: {}, body: {amount: 1250, currency: 'AUD', reference: 'o-1'}})
    expect(asked).toEqual(['LIVE: type the amount (12.50 AUD) to confirm gw purchase create'])
  })

  it('a live profile has the id typed back before a delete, and needs --yes without a terminal', async () => {
    const {prompter, asked} = scripted(['071-C-1'])
    await requestGuard({target: liveTarget, commandId: 'customer delete', yes: false, io: testIo({tty: true}), prompter})(endpoints.customers.delete, {params: {id: '071-C-1'}, body: undefined})
    expect(asked).toEqual(['LIVE: type the id (071-C-1) to confirm gw customer delete'])
    await expect(
      requestGuard({target: liveTarget, commandId: 'customer delete', yes: false, io: testIo(), prompter: scripted([]).prompter})(endpoints.customers.delete, {params: {id: '071-C-1'}, body: undefined}),
    ).rejects.toMatchObject({exitCode: 2, hint: 'Add --yes to confirm it.'})
  })

  it("confirms a live refund's amount in its purchase's currency, looked up, as the record will show it", async () => {
    const {prompter, asked} = scripted(['437.50'])
    const looked: string[] = []
    const purchaseCurrency = async (id: string) => (looked.push(id), 'AUD')
    await requestGuard({target: liveTarget, commandId: 'refund create', yes: false, io: testIo({tty: true}), prompter, purchaseCurrency})(endpoints.refunds.create, {params: {}, body: {transaction_id: '071-P-1', amount: 43750, reference: 'r-1'}})
    expect(asked).toEqual(['LIVE: type the amount (437.50 AUD) to confirm gw refund create'])
    expect(looked).toEqual(['071-P-1'])
    // Its purchase not found: major units all the same, saying the currency is not known.
    const unknown = scripted(['437.50'])
    await requestGuard({target: liveTarget, commandId: 'refund create', yes: false, io: testIo({tty: true}), prompter: unknown.prompter, purchaseCurrency: async () => undefined})(endpoints.refunds.create, {params: {}, body: {transaction_id: '071-P-2', amount: 43750, reference: 'r-2'}})
    expect(unknown.asked).toEqual(['LIVE: type the amount (437.50 (currency not known)) to confirm gw refund create'])
    // --yes asks nothing, so nothing is looked up.
    await requestGuard({target: liveTarget, commandId: 'refund create', yes: true, io: testIo({tty: true}), prompter: scripted([]).prompter, purchaseCurrency})(endpoints.refunds.create, {params: {}, body: {transaction_id: '071-P-3', amount: 100, reference: 'r-3'}})
    expect(looked).toEqual(['071-P-1'])
  })

  it("confirms a live capture's and increment's amount in the authorization's currency, looked up by the id in the path", async () => {
    const looked: string[] = []
    const purchaseCurrency = async (id: string) => (looked.push(id), 'USD')
    const capture = scripted(['40.00'])
    await requestGuard({target: liveTarget, commandId: 'purchase capture', yes: false, io: testIo({tty: true}), prompter: capture.prompter, purchaseCurrency})(endpoints.purchases.capture, {params: {id: '071-P-1'}, body: {amount: 4000}})
    expect(capture.asked).toEqual(['LIVE: type the amount (40.00 USD) to confirm gw purchase capture'])
    const increment = scripted(['65.00'])
    await requestGuard({target: liveTarget, commandId: 'purchase increment', yes: false, io: testIo({tty: true}), prompter: increment.prompter, purchaseCurrency})(endpoints.purchases.increment, {params: {id: '071-P-2'}, body: {amount: 6500}})
    expect(increment.asked).toEqual(['LIVE: type the amount (65.00 USD) to confirm gw purchase increment'])
    expect(looked).toEqual(['071-P-1', '071-P-2'])
    // A void is confirmed by its id, and an extension not at all: nothing is looked up for them.
    const voided = scripted(['071-P-3'])
    await requestGuard({target: liveTarget, commandId: 'purchase void', yes: false, io: testIo({tty: true}), prompter: voided.prompter, purchaseCurrency})(endpoints.purchases.void, {params: {}, body: {id: '071-P-3'}})
    expect(voided.asked).toEqual(['LIVE: type the id (071-P-3) to confirm gw purchase void'])
    expect(looked).toEqual(['071-P-1', '071-P-2'])
  })

  it('asks nothing on a sandbox profile, nor for a live read', async () => {
    const quiet = scripted([])
    await requestGuard({target: sandbox, commandId: 'purchase create', yes: false, io: testIo({tty: true}), prompter: quiet.prompter})(endpoints.purchases.create, {params: {}, body: {amount: 1}})
    await requestGuard({target: liveTarget, commandId: 'purchase get', yes: false, io: testIo({tty: true}), prompter: quiet.prompter})(endpoints.purchases.get, {params: {id: 'o-1'}, body: undefined})
    expect(quiet.asked).toEqual([])
  })
})

describe('a batch on a live profile', () => {
  const plan = {noun: 'refund' as const, rows: 300, totals: '2950.00 AUD'}
  it('is confirmed once by typing its number of rows; its rows then pass the guard unasked', async () => {
    const {prompter, asked} = scripted(['300'])
    const confirmed = await confirmBatch({target: liveTarget, commandId: 'refund create', yes: false, io: testIo({tty: true}), prompter, plan: async () => plan})
    expect(asked).toEqual(['LIVE: about to send 300 refunds (2950.00 AUD). Type the number of rows (300) to confirm'])
    const guard = requestGuard({target: liveTarget, commandId: 'refund create', yes: false, io: testIo({tty: true}), prompter: scripted([]).prompter, ...confirmed})
    await expect(guard(endpoints.refunds.create, {params: {}, body: {transaction_id: 'p', amount: 100, reference: 'r'}})).resolves.toBeUndefined()
  })

  it('needs --yes without a terminal, and a read-only profile refuses it first', async () => {
    const {prompter} = scripted([])
    await expectReject(confirmBatch({target: liveTarget, commandId: 'refund create', yes: false, io: testIo(), prompter, plan: async () => plan}), UsageError, /must be confirmed, and there is no terminal/)
    await expect(confirmBatch({target: liveTarget, commandId: 'refund create', yes: true, io: testIo(), prompter, plan: async () => plan})).resolves.toEqual({confirmedUpFront: true})
    const readOnly = {...liveTarget, profile: {readOnly: true}} as Target
    await expect(confirmBatch({target: readOnly, commandId: 'refund create', yes: true, io: testIo(), prompter, plan: async () => plan})).rejects.toMatchObject({exitCode: 6})
  })

  it('is refused when the number typed is not its number of rows', async () => {
    const {prompter} = scripted(['30', '3000', '30'])
    await expectReject(confirmBatch({target: liveTarget, commandId: 'refund create', yes: false, io: testIo({tty: true}), prompter, plan: async () => plan}), UsageError, '"30" does not match 300: nothing was sent')
  })
})

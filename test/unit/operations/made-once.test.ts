import {describe, expect, it} from 'vitest'
import type {GatewayClient} from '../../../src/api/client.js'
import {GatewayError, InterruptedError, NoAnswerError, NotFoundError, RejectedError, UnreachableError} from '../../../src/errors.js'
import type {Clock} from '../../../src/money/window.js'
import type {RecoveryEvent} from '../../../src/api/recovery.js'
import {findEarlierMade, makeOnce, type MadeRequest} from '../../../src/operations/made-once.js'
import {countedPlan, newDebit} from '../../fixtures/recorded-plans-debits.js'
import {expectReject} from '../../expect-error.js'

type GwRecord = Record<string, unknown>

const planSent = {customer: '071-C-AXMHJRZV', payment_method: 'Credit Card', reference: countedPlan.reference, amount: 100, setup_fee: 0, start_date: '2018-10-10', frequency: 'Weekly', anniversary: 5, total_count: 5, total_amount: 500}
const debitSent = {description: 'Confirmation', amount: 42, bsb: '123-123', account_name: 'Test', account_number: '012345678', reference: newDebit.reference}

/** A clock whose pauses pass at once, counted: the window is waited through without waiting. */
function fastClock(): Clock & {slept: number[]} {
  let now = 1_000_000
  const slept: number[] = []
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms)
      now += ms
    },
  }
}

/** What makeOnce needs of the client: its clock (each in-flight it was asked for kept), window, and the recovery's listener (each step kept). */
function clientWith(clock: Clock, windowMs = 12_000, inFlight: unknown[] = [], told: RecoveryEvent[] = []): GatewayClient {
  return {
    clock: (asked: unknown) => {
      inFlight.push(asked)
      return clock
    },
    processingWindow: async () => windowMs,
    tellRecovery: (event: RecoveryEvent) => told.push(event),
    // The request left when it was posted: the fake's clock moves only when a wait does.
    get lastSentAt() {
      return clock.now()
    },
  } as unknown as GatewayClient
}

/** A request whose post and look-ups answer in turn as given (a function throws, a record is found), counting each. */
function request(noun: MadeRequest['noun'], body: GwRecord & {reference: string}, post: () => Promise<GwRecord>, looks: (() => Promise<GwRecord>)[] = []): MadeRequest & {posts: number; lookUps: string[]} {
  const made = {
    noun,
    body,
    posts: 0,
    lookUps: [] as string[],
    post: () => {
      made.posts++
      return post()
    },
    lookUp: (reference: string) => {
      made.lookUps.push(reference)
      const next = looks.shift()
      return next ? next() : Promise.reject(new Error('unexpected look-up'))
    },
  }
  return made
}

const notFound = () => Promise.reject(new NotFoundError('Could not find Payment Plan', {status: 404}))
const found = (record: GwRecord) => () => Promise.resolve(record)
const taken = () => Promise.reject(new RejectedError('Reference has already been taken', {status: 422, messages: ['Reference has already been taken']}))
const lost = () => Promise.reject(new NoAnswerError('No answer from http://gw: socket hang up'))

describe('makeOnce: a plan or debit sent once', () => {
  it('answered: made, no failure, nothing looked up; the clock it waits by names what is in flight (a signal meanwhile says what to check)', async () => {
    const made = request('payment plan', planSent, found(countedPlan))
    const inFlight: unknown[] = []
    const sent = await makeOnce(made, clientWith(fastClock(), 12_000, inFlight))
    expect(inFlight).toEqual([{noun: 'payment plan', reference: countedPlan.reference}])
    expect(sent).toEqual({body: planSent, decided: {outcome: 'made', noun: 'payment plan', record: countedPlan, source: 'answer'}, failure: undefined})
    expect([made.posts, made.lookUps]).toEqual([1, []])
  })

  it('its reference taken by this same plan: made earlier, not sent again', async () => {
    const made = request('payment plan', planSent, taken, [found(countedPlan)])
    const sent = await makeOnce(made, clientWith(fastClock()))
    expect(sent.decided).toEqual({outcome: 'made', noun: 'payment plan', record: countedPlan, source: 'earlier'})
    expect([made.posts, made.lookUps]).toEqual([1, [countedPlan.reference]])
  })

  it('its reference taken by another plan: exit 7 naming it', async () => {
    const sent = await makeOnce(request('payment plan', planSent, taken, [found({...countedPlan, amount: 200})]), clientWith(fastClock()))
    expect(sent.decided.outcome).toBe('taken')
    expect(sent.failure).toMatchObject({exitCode: 7, message: `Reference ${countedPlan.reference} is already taken by another payment plan 071-PP-C0YK842K: amount: sent 100, found 200. The gateway refused this request under it: nothing was made.`})
  })

  it('its reference taken and nothing found under it (a debit): the refusal stands', async () => {
    await expectReject(makeOnce(request('direct debit', debitSent, taken, [notFound]), clientWith(fastClock())), RejectedError, 'Reference has already been taken')
  })

  it('its reference taken and the look-up failing: the refusal stands', async () => {
    await expectReject(makeOnce(request('direct debit', debitSent, taken, [() => Promise.reject(new Error('HTTP 503'))]), clientWith(fastClock())), RejectedError, 'Reference has already been taken')
  })

  it('any other refusal, or nothing sent (unreachable), passes through, never looked up', async () => {
    const refused = request('payment plan', planSent, () => Promise.reject(new NotFoundError('Customer  could not be found', {status: 404})))
    await expectReject(makeOnce(refused, clientWith(fastClock())), NotFoundError, 'Customer  could not be found')
    const unreached = request('payment plan', planSent, () => Promise.reject(new UnreachableError('connect ECONNREFUSED', {baseUrl: 'http://gw', certificate: false})))
    await expectReject(makeOnce(unreached, clientWith(fastClock())), UnreachableError, 'ECONNREFUSED')
    const stopped = request('payment plan', planSent, () => Promise.reject(new InterruptedError('SIGINT')))
    await expectReject(makeOnce(stopped, clientWith(fastClock())), InterruptedError, 'Interrupted.')
    expect([refused.lookUps, unreached.lookUps, stopped.lookUps]).toEqual([[], [], []])
  })

  it('an answer lost, the plan found at once under its reference: made (recovered), sent once', async () => {
    const clock = fastClock()
    const made = request('payment plan', planSent, lost, [found(countedPlan)])
    const told: RecoveryEvent[] = []
    const sent = await makeOnce(made, clientWith(clock, 12_000, [], told))
    expect(sent.decided).toEqual({outcome: 'made', noun: 'payment plan', record: countedPlan, source: 'recovered'})
    expect(sent.failure).toBeUndefined()
    expect([made.posts, clock.slept]).toEqual([1, []])
    const inFlight = {noun: 'payment plan', reference: planSent.reference, why: 'No answer from http://gw: socket hang up'}
    expect(told).toEqual([{step: 'looking_up', ...inFlight}, {step: 'found', ...inFlight}])
  })

  it('an answer lost (a 5xx), the plan found once the gateway has it: looked up again within the window', async () => {
    const clock = fastClock()
    const made = request('payment plan', planSent, () => Promise.reject(new GatewayError('gateway', 'HTTP 502')), [notFound, notFound, found(countedPlan)])
    const told: RecoveryEvent[] = []
    const sent = await makeOnce(made, clientWith(clock, 12_000, [], told))
    expect(sent.decided).toMatchObject({outcome: 'made', source: 'recovered'})
    expect([made.posts, made.lookUps.length, clock.slept]).toEqual([1, 3, [5000, 5000]])
    // The wait is told as it begins (its end 12 s after the send) and ends; then what was found.
    const inFlight = {noun: 'payment plan', reference: planSent.reference, why: 'HTTP 502'}
    expect(told).toEqual([{step: 'looking_up', ...inFlight}, {step: 'waiting', ...inFlight, since: 1_000_000, endsAt: 1_012_000}, {step: 'waited', ...inFlight}, {step: 'found', ...inFlight}])
  })

  it('an answer lost and another plan found: unknown, showing both, and not told as found', async () => {
    const told: RecoveryEvent[] = []
    const sent = await makeOnce(request('payment plan', planSent, lost, [found({...countedPlan, amount: 200})]), clientWith(fastClock(), 12_000, [], told))
    expect(told.map((event) => event.step)).toEqual(['looking_up'])
    expect(sent.decided).toMatchObject({outcome: 'unknown', reason: {why: 'different'}})
    expect(sent.failure!.message).toMatch(/^The payment plan was sent but no answer came back that could be read \(No answer from http:\/\/gw: socket hang up\)\. The gateway has a payment plan under reference \S+, but not the one sent \(amount: sent 100, found 200\)/)
  })

  it('an answer lost and nothing found once the window is over: unknown (exit 8), never sent again', async () => {
    const clock = fastClock()
    const made = request('direct debit', debitSent, lost, [notFound, notFound, notFound, notFound])
    const sent = await makeOnce(made, clientWith(clock))
    expect(sent.decided).toEqual({outcome: 'unknown', noun: 'direct debit', reason: {why: 'unanswered'}})
    expect(sent.failure).toMatchObject({
      exitCode: 8,
      noun: 'direct debit',
      reference: newDebit.reference,
      message: `The direct debit was sent but no answer came back that could be read (No answer from http://gw: socket hang up), and the gateway has no direct debit under reference ${newDebit.reference}, even once it could no longer be processing it`,
    })
    expect([made.posts, clock.slept]).toEqual([1, [5000, 5000, 2000]])
  })

  it('an answer lost and the look-up failing: unknown, saying why', async () => {
    const sent = await makeOnce(request('payment plan', planSent, lost, [() => Promise.reject(new Error('HTTP 503'))]), clientWith(fastClock()))
    expect(sent.failure).toMatchObject({exitCode: 8, message: 'The payment plan was sent but no answer came back that could be read (No answer from http://gw: socket hang up), and looking it up failed too: HTTP 503'})
  })

  it('a signal during the look-up stops it', async () => {
    await expectReject(makeOnce(request('payment plan', planSent, lost, [() => Promise.reject(new InterruptedError('SIGTERM'))]), clientWith(fastClock())), InterruptedError, 'Interrupted.')
  })
})

describe('findEarlierMade: a row an earlier run sent with no answer kept', () => {
  it('the plan found: made earlier', async () => {
    const sent = await findEarlierMade(request('payment plan', planSent, lost, [found(countedPlan)]))
    expect(sent).toEqual({body: planSent, decided: {outcome: 'made', noun: 'payment plan', record: countedPlan, source: 'earlier'}, failure: undefined})
  })

  it('another plan found: taken, nothing sent', async () => {
    const sent = await findEarlierMade(request('payment plan', planSent, lost, [found({...countedPlan, customer: '071-C-OTHER'})]))
    expect(sent?.decided.outcome).toBe('taken')
    expect(sent?.failure?.exitCode).toBe(7)
  })

  it('no plan under its reference: undefined, to be sent', async () => {
    await expect(findEarlierMade(request('payment plan', planSent, lost, [notFound]))).resolves.toBeUndefined()
  })

  it('no debit found under its reference: unknown (exit 8), not sent again', async () => {
    const sent = await findEarlierMade(request('direct debit', debitSent, lost, [notFound]))
    expect(sent?.decided).toEqual({outcome: 'unknown', noun: 'direct debit', reason: {why: 'not_findable'}})
    expect(sent?.failure?.message).toBe(
      `An earlier run sent this direct debit and its answer was not recorded. The gateway has no direct debit it finds under reference ${newDebit.reference}, but it is known to find a direct debit by its id only: it may have been made all the same, and it is not sent again`,
    )
  })

  it('--verify of a debit an earlier answer named: looked up by that id, found made earlier; a 404 by its id is none (undefined), not in doubt', async () => {
    const byId = request('direct debit', debitSent, lost, [found(newDebit)])
    await expect(findEarlierMade(byId, '071-DD-ID')).resolves.toMatchObject({decided: {outcome: 'made', source: 'earlier'}})
    const gone = request('direct debit', debitSent, lost, [notFound])
    await expect(findEarlierMade(gone, '071-DD-ID')).resolves.toBeUndefined()
    expect([byId.lookUps, gone.lookUps]).toEqual([['071-DD-ID'], ['071-DD-ID']])
  })

  it('the debit found: made earlier', async () => {
    await expect(findEarlierMade(request('direct debit', debitSent, lost, [found(newDebit)]))).resolves.toMatchObject({decided: {outcome: 'made', source: 'earlier'}})
  })

  it('a look-up that fails: unknown, saying why', async () => {
    const sent = await findEarlierMade(request('payment plan', planSent, lost, [() => Promise.reject(new Error('socket hang up'))]))
    expect(sent?.decided).toEqual({outcome: 'unknown', noun: 'payment plan', reason: {why: 'unanswered'}})
    expect(sent?.failure).toMatchObject({exitCode: 8, noun: 'payment plan', reference: countedPlan.reference, message: 'An earlier run sent this payment plan and its answer was not recorded, and looking it up failed: socket hang up'})
  })

  it('a look-up that fails with no message of its own: said as it is', async () => {
    const sent = await findEarlierMade(request('payment plan', planSent, lost, [() => Promise.reject('reset' as unknown as Error)]))
    expect(sent?.failure?.message).toBe('An earlier run sent this payment plan and its answer was not recorded, and looking it up failed: reset')
  })
})

import {describe, expect, it} from 'vitest'
import {OutcomeUnknownError} from '../../../src/errors.js'
import {tokenizeCard, updateCard} from '../../../src/operations/cards.js'
import {createCustomer, deleteCustomer, updateCustomer} from '../../../src/operations/customers.js'
import {lookUp, type LookUpResource} from '../../../src/operations/look-up.js'
import {createPlan, updatePlan} from '../../../src/operations/plans.js'
import {type PurchaseInput, submitPurchase} from '../../../src/operations/purchases.js'
import {type RefundInput, submitRefund} from '../../../src/operations/refunds.js'
import {advanceClock, triggerEvent} from '../../../src/operations/sandbox.js'
import {createSubscription, setSubscriptionActive} from '../../../src/operations/subscriptions.js'
import type {Sent} from '../../../src/operations/money.js'
import {fakeClient, fakeDeps} from './fake-client.js'

type TestDeps = Parameters<typeof submitPurchase>[1]
// What the commands print: the record of what was sent.
const createPurchase = async (input: PurchaseInput, deps: TestDeps) => recordOf(await submitPurchase(input, deps))
const createRefund = async (input: RefundInput, deps: TestDeps) => recordOf(await submitRefund(input, deps))
const recordOf = ({decided}: Sent) => (decided.outcome === 'approved' || decided.outcome === 'declined' ? decided.record : undefined)

const card = {card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}
const approved = {id: '071-P-ABCDEFGH', successful: true, message: 'Approved'}

describe('operations send exactly the request their input describes', () => {
  const cases: {name: string; stub: string; run: (deps: ReturnType<typeof fakeDeps>) => Promise<unknown>; args: unknown[]}[] = [
    {
      name: 'a purchase with a card in full',
      stub: 'purchases.create',
      run: (deps) => createPurchase({amount: 1000, reference: 'o-1', currency: 'AUD', card}, deps),
      args: [{...card, amount: 1000, reference: 'o-1', currency: 'AUD'}],
    },
    {
      name: 'a purchase with a token, a CVV and the customer IP',
      stub: 'purchases.create',
      run: (deps) => createPurchase({amount: 250, reference: 'o-2', currency: 'NZD', card: {token: 'tok', cvv: '999'}, customerIp: '203.0.113.9'}, deps),
      args: [{card_token: 'tok', cvv: '999', amount: 250, reference: 'o-2', currency: 'NZD', customer_ip: '203.0.113.9'}],
    },
    {
      name: 'a refund',
      stub: 'refunds.create',
      run: (deps) => createRefund({transactionId: '071-P-ABCDEFGH', amount: 500, reference: 'r-1'}, deps),
      args: [{transaction_id: '071-P-ABCDEFGH', amount: 500, reference: 'r-1'}],
    },
    {name: 'a card tokenized', stub: 'cards.tokenize', run: (deps) => tokenizeCard(card, deps), args: [card]},
    {name: 'a card given an alias only', stub: 'cards.update', run: (deps) => updateCard({token: 'tok', alias: 'cust-42'}, deps), args: ['tok', {alias: 'cust-42'}]},
    {name: 'a card given a new expiry only', stub: 'cards.update', run: (deps) => updateCard({token: 'tok', cardExpiry: '09/2032'}, deps), args: ['tok', {card_expiry: '09/2032'}]},
    {
      name: 'a plan',
      stub: 'plans.create',
      run: (deps) => createPlan({name: 'Gold', amount: 2500, reference: 'gold', description: 'Gold tier'}, deps),
      args: [{name: 'Gold', amount: 2500, reference: 'gold', description: 'Gold tier'}],
    },
    {name: "a plan's description only", stub: 'plans.update', run: (deps) => updatePlan('071-PL-1', {description: 'New'}, deps), args: ['071-PL-1', {description: 'New'}]},
    {
      name: 'a customer, the card holder defaulting to the name',
      stub: 'customers.create',
      run: (deps) => createCustomer({'first-name': 'Jane', 'last-name': 'Citizen', reference: 'c-1', email: 'j@example.com'}, {...card, card_holder: ''}, deps),
      args: [{first_name: 'Jane', last_name: 'Citizen', reference: 'c-1', email: 'j@example.com', card: {card_holder: 'Jane Citizen', card_number: card.card_number, expiry_date: '12/2030', cvv: '123'}}],
    },
    {name: "a customer's email only", stub: 'customers.update', run: (deps) => updateCustomer('071-C-1', {email: 'new@example.com'}, undefined, deps), args: ['071-C-1', {email: 'new@example.com'}]},
    {name: 'a customer deleted', stub: 'customers.delete', run: (deps) => deleteCustomer('071-C-1', deps), args: ['071-C-1']},
    {
      name: 'a subscription created stopped',
      stub: 'subscriptions.create',
      run: (deps) => createSubscription({customer: 'c-1', plan: 'gold', frequency: 'Monthly', startDate: '2027-01-01', reference: 's-1', active: false}, deps),
      args: [{customer: 'c-1', plan: 'gold', frequency: 'Monthly', start_date: '2027-01-01', reference: 's-1', is_active: false}],
    },
    {name: 'a subscription resumed', stub: 'subscriptions.update', run: (deps) => setSubscriptionActive('071-S-1', true, deps), args: ['071-S-1', {is_active: true}]},
    {name: 'the clock moved by days', stub: 'sandbox.advanceClock', run: (deps) => advanceClock({days: 35}, deps), args: [{days: 35}]},
    {name: 'an event to one URL', stub: 'sandbox.trigger', run: (deps) => triggerEvent({event: 'card:expiring', webhook: 'http://127.0.0.1:4000/'}, deps), args: [{event: 'card:expiring', webhook: 'http://127.0.0.1:4000/'}]},
    {name: 'an event to the registered web hooks', stub: 'sandbox.trigger', run: (deps) => triggerEvent({event: 'charge:failed'}, deps), args: [{event: 'charge:failed'}]},
  ]

  it.each(cases)('$name', async ({stub, run, args}) => {
    const fake = fakeClient({[stub]: () => approved})
    const deps = fakeDeps(fake.client)
    await expect(run(deps)).resolves.toEqual(approved)
    expect(fake.calls).toEqual([{method: stub, args}])
    fake.verify()
    // Operations never print: what to say is the renderer's.
    expect(deps.io.stdout() + deps.io.stderr()).toBe('')
  })
})

describe('a purchase decides what came of it; errors that decide nothing pass through', () => {
  it('a decline is an outcome with its record, exit 3', async () => {
    const declined = {...approved, successful: false, message: 'Insufficient Funds'}
    const fake = fakeClient({'purchases.create': () => declined})
    const sent = await submitPurchase({amount: 1000, reference: 'o-1', currency: 'AUD', card: {token: 'tok'}}, fakeDeps(fake.client))
    expect(sent.decided).toEqual({outcome: 'declined', noun: 'purchase', record: declined, source: 'answer', reason: 'Insufficient Funds'})
    expect(sent.failure).toMatchObject({exitCode: 3, message: 'Purchase declined: Insufficient Funds', record: declined})
  })

  it("the client's unknown outcome is decided unknown, with that same error, exit 8", async () => {
    const thrown = new OutcomeUnknownError('no answer', {noun: 'purchase', reference: 'o-1'})
    const fake = fakeClient({'purchases.create': () => Promise.reject(thrown)})
    const sent = await submitPurchase({amount: 1000, reference: 'o-1', currency: 'AUD', card: {token: 'tok'}}, fakeDeps(fake.client))
    expect(sent.decided).toEqual({outcome: 'unknown', noun: 'purchase', reason: {why: 'unanswered'}})
    expect(sent.failure).toBe(thrown)
    fake.verify()
  })
})

describe('one look-up operation for every record', () => {
  it.each(['purchases', 'refunds', 'cards', 'customers', 'plans', 'subscriptions'] as LookUpResource[])('%s', async (resource) => {
    const fake = fakeClient({[`${resource}.get`]: (id: string) => ({id})})
    await expect(lookUp(resource, 'ref/with ü', fakeDeps(fake.client))).resolves.toEqual({id: 'ref/with ü'})
    expect(fake.calls).toEqual([{method: `${resource}.get`, args: ['ref/with ü']}])
  })
})

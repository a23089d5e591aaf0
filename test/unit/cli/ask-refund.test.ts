import type {MadeFor} from '../../../src/lists/refund-match.js'
import {describe, expect, it} from 'vitest'
import {NotFoundError} from '../../../src/errors.js'
import {askRefund} from '../../../src/cli/ask-amount.js'
import type {Prompter} from '../../../src/output/prompter.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'
import {fakeClient} from '../operations/fake-client.js'
import {testBook} from '../lists/test-book.js'

// At a terminal a refund's amount offers what is left of the purchase, then its reference
// the one derived from the purchase's; Enter takes each offer.

/** A prompter that answers each question in turn (an empty answer is Enter: the offer), recording what it was asked. */
function scripted(...answers: string[]): Prompter & {asked: {message: string; offered?: string}[]} {
  const asked: {message: string; offered?: string}[] = []
  return {
    asked,
    text: async (message, options) => {
      asked.push({message, offered: options?.default})
      const answer = answers.shift() ?? ''
      return answer === '' ? (options?.default ?? '') : answer
    },
    secret: async () => '',
    choose: async (_, choices) => choices[0]!,
  }
}

const refundsAt = (...references: string[]) => (reference: string) =>
  references.includes(reference) ? {...liveRefund, reference} : Promise.reject(new NotFoundError('Purchase not found', {status: 404}))
const none = async () => new Map<string, MadeFor>()
/** The refunds list as the gateway holds these: one page. */
const listing = (...records: Record<string, unknown>[]) => () => ({records, paging: {page: 1, pages: 1, total: records.length}})

describe('askRefund', () => {
  it("offers what the gateway's own refunded_amount leaves, asking nothing more of the gateway for it; then the derived reference, which Enter takes", async () => {
    const fake = fakeClient({'purchases.get': () => ({...livePurchase, refunded_amount: 4000}), 'refunds.get': refundsAt('order-1042-R1'), 'refunds.list': listing({...liveRefund, reference: 'order-1042-R1'})})
    const prompter = scripted('', '')
    const input = await askRefund({transactionId: 'order-1042'}, {client: fake.client, prompter, made: none, book: testBook(fake.client)})
    expect(prompter.asked).toEqual([
      {message: 'amount to refund in the minor currency unit (--amount); Enter for what is left of it, 60.00 AUD (the gateway says 40.00 AUD of 100.00 AUD refunded)', offered: '6000'},
      {message: "your reference for the refund (--reference); Enter for the one derived from the purchase's", offered: 'order-1042-R2'},
    ])
    expect(input).toMatchObject({transactionId: 'order-1042', amount: 6000, reference: 'order-1042-R2', referenceDerived: true, purchase: {id: livePurchase.id}})
    // The gateway said what is left; the refunds list (gw's index) says order-1042-R1 is taken, and the gateway that order-1042-R2 is free.
    expect(fake.calls.map((call) => call.method)).toEqual(['purchases.get', 'refunds.list', 'refunds.get'])
    expect(fake.calls[2]!.args).toEqual(['order-1042-R2'])
  })

  it('without the gateway\'s figure, reads the refunds on its card: one gw recorded making for it is certain; a reference typed is used as given', async () => {
    const page = {records: [{...liveRefund, reference: 'order-1042-R1', amount: 2500}], paging: {page: 1, pages: 1, total: 1}}
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.list': () => page, 'refunds.get': refundsAt('order-1042-R1')})
    const prompter = scripted('', 'my-own')
    const made = async (ids: ReadonlySet<string>) => new Map<string, MadeFor>([...ids].map((id) => [id, {transactionId: 'order-1042', by: 'refund_create'}]))
    const input = await askRefund({transactionId: 'order-1042'}, {client: fake.client, prompter, made, book: testBook(fake.client)})
    expect(prompter.asked[0]).toEqual({message: 'amount to refund in the minor currency unit (--amount); Enter for what is left of it, 75.00 AUD (25.00 AUD of 100.00 AUD refunded)', offered: '7500'})
    expect(input).toMatchObject({amount: 7500, reference: 'my-own', referenceDerived: false})
  })

  it('a refund only likely of it (a derived reference gw has no record of making) leaves a range: what is surely left is offered', async () => {
    const page = {records: [{...liveRefund, reference: 'order-1042-R1', amount: 2500}], paging: {page: 1, pages: 1, total: 1}}
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.list': () => page, 'refunds.get': refundsAt('order-1042-R1')})
    const prompter = scripted('', 'my-own')
    await askRefund({transactionId: 'order-1042'}, {client: fake.client, prompter, made: none, book: testBook(fake.client)})
    expect(prompter.asked[0]).toEqual({message: 'amount to refund in the minor currency unit (--amount); Enter for 75.00 AUD, what is surely left (1 refund on its card that may be of it comes to 25.00 AUD)', offered: '7500'})
  })

  it('refuses before asking when nothing is left to refund: exit 7 as the gateway would, saying what was refunded, nothing asked or sent', async () => {
    const fake = fakeClient({'purchases.get': () => ({...livePurchase, refunded_amount: livePurchase.amount})})
    const prompter = scripted('')
    const refused = await askRefund({transactionId: 'order-1042'}, {client: fake.client, prompter, made: none, book: testBook(fake.client)}).catch((error: unknown) => error)
    expect(refused).toMatchObject({exitCode: 7, message: `Nothing is left of purchase ${livePurchase.reference} to refund (the gateway says 100.00 AUD of 100.00 AUD refunded): nothing was sent`})
    expect(prompter.asked).toEqual([])
    const declined = fakeClient({'purchases.get': () => ({...livePurchase, successful: false, message: 'Declined'}), 'refunds.list': () => ({records: [], paging: {page: 1, pages: 1, total: 0}})})
    const took = await askRefund({transactionId: 'order-1042'}, {client: declined.client, prompter, made: none, book: testBook(declined.client)}).catch((error: unknown) => error)
    expect(took).toMatchObject({exitCode: 7, message: `Purchase ${livePurchase.reference} took nothing (it was declined), so nothing of it can be refunded: nothing was sent`})
  })

  it('refuses at the prompt more than is left, saying what is left: asked again, never taken', async () => {
    const fake = fakeClient({'purchases.get': () => ({...livePurchase, refunded_amount: 4000}), 'refunds.get': refundsAt(), 'refunds.list': listing()})
    const checks: Array<string | true> = []
    const prompter: Prompter = {
      text: async (message, options) => {
        if (message.includes('(--amount)')) for (const typed of ['6001', 'ten', '6000']) checks.push(await options!.validate!(typed))
        return message.includes('(--amount)') ? '6000' : 'my-own'
      },
      secret: async () => '',
      choose: async (_, choices) => choices[0]!,
    }
    const input = await askRefund({transactionId: 'order-1042'}, {client: fake.client, prompter, made: none, book: testBook(fake.client)})
    expect(checks).toEqual(['60.01 AUD is more than is left of it, 60.00 AUD (the gateway says 40.00 AUD of 100.00 AUD refunded)', expect.stringContaining('--amount must be a positive whole number'), true])
    expect(input).toMatchObject({amount: 6000, reference: 'my-own'})
  })

  it('asks only for what was left out', async () => {
    const fake = fakeClient({'purchases.get': () => livePurchase, 'refunds.get': refundsAt(), 'refunds.list': listing()})
    const prompter = scripted('')
    const input = await askRefund({transactionId: 'order-1042', amount: 100}, {client: fake.client, prompter, made: none, book: testBook(fake.client)})
    expect(prompter.asked.map((question) => question.offered)).toEqual(['order-1042-R1'])
    expect(input).toMatchObject({amount: 100, reference: 'order-1042-R1', referenceDerived: true})
  })
})

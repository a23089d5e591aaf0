import {describe, expect, it} from 'vitest'
import {InterruptedError, NotFoundError} from '../../../src/errors.js'
import {type Lookups, verifyFound} from '../../../src/money/find.js'
import {livePurchase, liveRefund} from '../../fixtures/live-records.js'

/** Look-ups over a pretend gateway holding the live purchase; what was asked is recorded. */
function lookups(fail?: Error): Lookups & {asked: string[]} {
  const asked: string[] = []
  return {
    asked,
    cardToken: async (alias) => {
      asked.push(`card ${alias}`)
      if (fail) throw fail
      return alias === 'jane-mastercard' ? livePurchase.card_token : 'zzzzzzzzzzzzzzzzzzzz'
    },
    purchase: async (id) => {
      asked.push(`purchase ${id}`)
      if (fail) throw fail
      if (id !== livePurchase.id && id !== livePurchase.reference) throw new NotFoundError('Purchase not found')
      return {...livePurchase}
    },
  }
}

const refundSent = {transaction_id: 'order-1042', amount: 5000, reference: 'refund-1042-a'}

describe('verifyFound asks the gateway what the comparison needs, and believes nothing it could not learn', () => {
  it('a refund is held against its purchase, looked up by what the refund named', async () => {
    const gateway = lookups()
    await expect(verifyFound('refund', refundSent, liveRefund, gateway, 'earlier')).resolves.toMatchObject({outcome: 'approved', source: 'earlier'})
    expect(gateway.asked).toEqual(['purchase order-1042'])
  })

  it('a refund whose purchase is known already asks nothing', async () => {
    const gateway = lookups()
    await expect(verifyFound('refund', refundSent, liveRefund, gateway, 'recovered', {purchase: {...livePurchase}})).resolves.toMatchObject({outcome: 'approved'})
    expect(gateway.asked).toEqual([])
  })

  it('a refund whose purchase cannot be looked up is unknown', async () => {
    await expect(verifyFound('refund', refundSent, liveRefund, lookups(new Error('socket hang up')), 'recovered')).resolves.toMatchObject({
      outcome: 'unknown',
      reason: {why: 'unchecked', unchecked: ['purchase refunded']},
    })
  })

  it('a purchase by alias asks what the alias stands for, only when the tokens differ', async () => {
    const gateway = lookups()
    const sent = {card_token: 'jane-mastercard', amount: 10000, reference: 'order-1042', currency: 'AUD'}
    await expect(verifyFound('purchase', sent, livePurchase, gateway, 'recovered')).resolves.toMatchObject({outcome: 'approved'})
    await expect(verifyFound('purchase', {...sent, card_token: livePurchase.card_token}, livePurchase, gateway, 'recovered')).resolves.toMatchObject({outcome: 'approved'})
    expect(gateway.asked).toEqual(['card jane-mastercard'])
  })

  it('a purchase by alias whose alias look-up fails is unknown, never believed', async () => {
    const sent = {card_token: 'jane-mastercard', amount: 10000, reference: 'order-1042', currency: 'AUD'}
    await expect(verifyFound('purchase', sent, livePurchase, lookups(new Error('HTTP 503')), 'recovered')).resolves.toMatchObject({outcome: 'unknown', reason: {why: 'unchecked'}})
  })

  it('asks nothing when neither token could stand for an alias: sent by number, or a record without a token', async () => {
    const gateway = lookups()
    const byNumber = {card_number: '5123456789012346', amount: 10000, reference: 'order-1042', currency: 'AUD'}
    await expect(verifyFound('purchase', byNumber, livePurchase, gateway, 'recovered')).resolves.toMatchObject({outcome: 'approved'})
    const byAlias = {card_token: 'jane-mastercard', amount: 10000, reference: 'order-1042', currency: 'AUD'}
    await expect(verifyFound('purchase', byAlias, {...livePurchase, card_token: 42}, gateway, 'recovered')).resolves.toMatchObject({
      outcome: 'unknown',
      reason: {why: 'unchecked', unchecked: ['card_token (what alias "jane-mastercard" stands for)']},
    })
    expect(gateway.asked).toEqual([])
  })

  it.each([undefined, 42])('an alias that stands for no token text (%s) is unchecked, never a match or a difference', async (token) => {
    const sent = {card_token: 'jane-mastercard', amount: 10000, reference: 'order-1042', currency: 'AUD'}
    const tokenless: Lookups = {cardToken: async () => token, purchase: async () => ({...livePurchase})}
    await expect(verifyFound('purchase', sent, livePurchase, tokenless, 'earlier')).resolves.toEqual({
      outcome: 'unknown',
      noun: 'purchase',
      record: livePurchase,
      reason: {why: 'unchecked', unchecked: ['card_token (what alias "jane-mastercard" stands for)']},
    })
  })

  it('a signal during a look-up still stops', async () => {
    await expect(verifyFound('refund', refundSent, liveRefund, lookups(new InterruptedError('SIGINT')), 'recovered')).rejects.toBeInstanceOf(InterruptedError)
  })
})

describe('an unmatched refund, which names no purchase', () => {
  const card = {card_holder: liveRefund.card_holder, card_number: '5123456789012346', currency: liveRefund.currency}
  const sent = {amount: 5000, reference: 'refund-1042-a', ...card}

  it('is held against the card sent, asking the gateway nothing', async () => {
    const gateway = lookups()
    await expect(verifyFound('refund', sent, liveRefund, gateway, 'recovered')).resolves.toMatchObject({outcome: 'approved', source: 'recovered'})
    expect(gateway.asked).toEqual([])
  })

  it('to another card, or another holder, is not the refund sent', async () => {
    const other = {...sent, card_number: '4111111111111111'}
    await expect(verifyFound('refund', other, liveRefund, lookups(), 'recovered')).resolves.toMatchObject({outcome: 'unknown', reason: {why: 'different', differences: [{field: 'card_number', against: 'purchase'}]}})
    const holder = {...sent, card_holder: 'Someone Else'}
    await expect(verifyFound('refund', holder, liveRefund, lookups(), 'earlier')).resolves.toMatchObject({outcome: 'taken', differences: [{field: 'card_holder', expected: 'Someone Else'}]})
  })

  it('sent by a token, its card cannot be checked: unknown, and nothing asked', async () => {
    const gateway = lookups()
    const byToken = {amount: 5000, reference: 'refund-1042-a', card_token: 'abcd'}
    await expect(verifyFound('refund', byToken, liveRefund, gateway, 'recovered')).resolves.toMatchObject({outcome: 'unknown', reason: {why: 'unchecked', unchecked: ['purchase refunded']}})
    expect(gateway.asked).toEqual([])
  })
})

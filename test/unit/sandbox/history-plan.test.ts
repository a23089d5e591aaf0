import {describe, expect, it} from 'vitest'
import {refundReference} from '../../../src/lists/refund-match.js'
import {type HistoryAsked, planHistory, seededRandom} from '../../../src/sandbox/domain/history-plan.js'

const asked: HistoryAsked = {purchases: 300, refunds: 5000, days: 60, cards: 5, prefix: 'hist'}

describe('planHistory: a quick history, planned before anything is made', () => {
  it('is the same for the same arguments, and another for others', () => {
    expect(planHistory(asked)).toEqual(planHistory(asked))
    expect(planHistory({...asked, days: 61})).not.toEqual(planHistory(asked))
    expect(seededRandom(7)()).toBe(seededRandom(7)())
  })

  it('holds what was asked, oldest first, within the days, each purchase approved by its whole dollars on one of the cards', () => {
    const {purchases, refunds} = planHistory(asked)
    expect([purchases.length, refunds.length]).toEqual([300, 5000])
    expect(purchases.map((purchase) => purchase.reference)).toEqual(Array.from({length: 300}, (_, i) => `hist-p${i + 1}`))
    for (const [index, purchase] of purchases.entries()) {
      expect(purchase.secondsAgo).toBeGreaterThanOrEqual(1)
      expect(purchase.secondsAgo).toBeLessThanOrEqual(60 * 86_400)
      expect(purchase.secondsAgo).toBeLessThanOrEqual(purchases[index - 1]?.secondsAgo ?? Infinity)
      expect(purchase.amount % 100).toBe(0)
      expect(purchase.card).toBeGreaterThanOrEqual(0)
      expect(purchase.card).toBeLessThan(5)
    }
    expect(new Set(purchases.map((purchase) => purchase.card)).size).toBe(5)
    for (const [index, refund] of refunds.entries()) expect(refund.secondsAgo).toBeLessThanOrEqual(refunds[index - 1]?.secondsAgo ?? Infinity)
  })

  it('makes each refund after its purchase, at most now, for at most what the purchase has left, named R1, R2... in the order they were made, as gw derives them', () => {
    const {purchases, refunds} = planHistory(asked)
    const left = purchases.map((purchase) => purchase.amount)
    const made = purchases.map(() => 0)
    for (const refund of refunds) {
      const purchase = purchases[refund.purchase]!
      expect(refund.secondsAgo).toBeGreaterThanOrEqual(0)
      expect(refund.secondsAgo).toBeLessThan(purchase.secondsAgo)
      expect(refund.amount).toBeGreaterThanOrEqual(100)
      left[refund.purchase]! -= refund.amount
      expect(left[refund.purchase]).toBeGreaterThanOrEqual(0)
      made[refund.purchase]!++
      expect(refund.reference).toBe(refundReference(purchase.reference, made[refund.purchase]!))
    }
  })

  it('covers a dollar for each refund of a purchase, however many refunds it has', () => {
    const {purchases, refunds} = planHistory({purchases: 2, refunds: 20_000, days: 1, cards: 1, prefix: 'many'})
    for (const [index, purchase] of purchases.entries()) {
      const own = refunds.filter((refund) => refund.purchase === index)
      expect(own.reduce((sum, refund) => sum + refund.amount, 0)).toBeLessThanOrEqual(purchase.amount)
      expect(purchase.amount).toBeGreaterThanOrEqual(own.length * 100)
    }
  })
})

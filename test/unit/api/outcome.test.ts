import {describe, expect, it} from 'vitest'
import {mismatches} from '../../../src/api/outcome.js'

const purchaseSent = {amount: 1000, reference: 'order-1', currency: 'AUD', card_number: '4242424242424242', card_holder: 'Jane', card_expiry: '12/2030'}
const purchaseFound = {id: '071-P-1', amount: 1000, reference: 'order-1', currency: 'AUD', card_number: '424242XXXXXX4242', successful: true}
const refundSent = {transaction_id: '071-P-1', amount: 500, reference: 'refund-1'}
// The contract's refund record: no reference, no currency; the live gateway sends the amount positive.
const refundFound = {id: '071-R-1', authorization: '1', amount: -500, refunded: 'Approved', message: 'Approved', card_number: '424242XXXXXX4242', successful: true}

describe('mismatches', () => {
  const cases: [string, 'purchase' | 'refund', Record<string, unknown>, Record<string, unknown>, string[]][] = [
    ['the purchase sent', 'purchase', purchaseSent, purchaseFound, []],
    ['a purchase under another reference', 'purchase', purchaseSent, {...purchaseFound, reference: 'order-2'}, ['reference: sent "order-1", found "order-2"']],
    ['a purchase that does not say its reference', 'purchase', purchaseSent, {...purchaseFound, reference: undefined}, ['reference: sent "order-1", found none']],
    ['a purchase of another amount', 'purchase', purchaseSent, {...purchaseFound, amount: 100}, ['amount: sent 1000, found 100']],
    ['a purchase on another card', 'purchase', purchaseSent, {...purchaseFound, card_number: '555555XXXXXX4444'}, ['card_number: sent "424242XXXXXX4242", found "555555XXXXXX4444"']],
    ['a refund as the contract shapes it, without a reference', 'refund', refundSent, refundFound, []],
    ['a refund with its amount positive, as the live gateway sends it', 'refund', refundSent, {...refundFound, amount: 500}, []],
    ['a refund that names its reference', 'refund', refundSent, {...refundFound, reference: 'refund-1'}, []],
    ['a refund that names another reference', 'refund', refundSent, {...refundFound, reference: 'refund-2'}, ['reference: sent "refund-1", found "refund-2"']],
    ['a refund of another amount', 'refund', refundSent, {...refundFound, amount: -50}, ['amount: sent 500, found -50']],
    ['a refund without an amount', 'refund', refundSent, {...refundFound, amount: null}, ['amount: sent 500, found none']],
  ]
  it.each(cases)('%s', (_, noun, sent, found, expected) => {
    expect(mismatches(noun, sent, found)).toEqual(expected)
  })
})

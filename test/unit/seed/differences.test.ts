import {describe, expect, it} from 'vitest'
import {describeSeedDifferences, seedDifferences} from '../../../src/seed/differences.js'

// A record found under a step's key is the step's only when it holds the step's values.
describe("a fixtures step against the record found under its key", () => {
  it.each([
    ['plan', {name: 'Gold', amount: 2500, reference: 'gold', description: 'Gold'}, {id: '071-PL-1', name: 'Gold', amount: 2500, reference: 'gold', description: 'Gold', currency: 'AUD'}, []],
    ['plan', {name: 'Gold', amount: 3000, reference: 'gold', description: 'Gold'}, {name: 'Gold ', amount: 2500, description: 'Gold'}, ['amount']],
    // What the record lacks cannot be told: no difference.
    ['plan', {name: 'Gold', amount: 3000, reference: 'gold', description: 'Gold'}, {name: 'Gold'}, []],
    ['customer', {first_name: 'Jane', last_name: 'Citizen', email: 'Jane@Example.com', reference: 'c'}, {first_name: 'Jane', last_name: 'Citizen', email: 'jane@example.com'}, []],
    ['customer', {first_name: 'Jane', last_name: 'Citizen', email: 'jane@example.com', reference: 'c'}, {first_name: 'Janet', last_name: 'Citizen', email: null}, ['first_name']],
    ['card', {card_holder: 'Jane', card_expiry: '12/30'}, {card_holder: 'Jane', card_expiry: '2030-12-31T23:59:59+11:00'}, []],
    ['card', {card_holder: 'Jane', card_expiry: '1/31'}, {card_holder: 'Jane', card_expiry: '2030-12-31'}, ['card_expiry']],
    ['subscription', {customer: '071-C-1', plan: '071-PL-1', frequency: 'monthly', start_date: '2030-01-01', reference: 's'}, {customer: '071-C-1', plan: '071-PL-1', frequency: 'Monthly', start_date: '2030-01-01', is_active: false}, []],
    ['subscription', {customer: '071-C-1', plan: '071-PL-2', frequency: 'weekly', start_date: '2030-01-01', reference: 's', is_active: true}, {customer: '071-C-1', plan: '071-PL-1', frequency: 'Monthly', start_date: '2030-01-01', is_active: false}, ['plan', 'frequency', 'is_active']],
    ['webhook', {address: 'http://x/', events: ['card:expired', 'charge:failed']}, {address: 'http://x/', events: ['charge:failed', 'card:expired'], name: null}, []],
    ['webhook', {address: 'http://x/', events: '*', name: 'hooks'}, {address: 'http://x/', events: ['charge:failed'], name: 'hooks'}, ['events']],
    ['webhook', {address: 'http://x/', events: ['payment_plan_payment:error']}, {address: 'http://x/', events: ['payment_plan_payment:error'], name: null}, []],
    [
      'payment_plan',
      {customer: '071-C-1', reference: 'pp', amount: 1000, start_date: '2030-01-01', frequency: 'weekly', anniversary: 5, total_count: 3},
      {customer: '071-C-1', reference: 'pp', amount: 1000, currency: null, start_date: '2030-01-01', frequency: 'Weekly', anniversary: 5, total_count: 3, end_date: null},
      [],
    ],
    [
      'payment_plan',
      {customer: '071-C-1', reference: 'pp', amount: 1000, start_date: '2030-01-01', frequency: 'Monthly', anniversary: 5, end_date: '2030-12-31', description: 'Gym'},
      {customer: '071-C-1', amount: 2000, start_date: '2030-01-01T00:00:00', frequency: 'Weekly', anniversary: 1, end_date: '2030-12-31', description: 'Gym '},
      ['amount', 'frequency', 'anniversary'],
    ],
    // A debit's amount in cents against the gateway's dollars read so (operations/seed-recurring.ts).
    ['direct_debit', {amount: 4242, description: 'Rent', bsb: '123-456', account_name: 'Jo', account_number: '012', reference: 'dd'}, {amount: 4242, description: 'Rent', bsb: '123-456', account_name: 'Jo', account_number: '012'}, []],
    ['direct_debit', {amount: 4242, description: 'Rent', bsb: '123-456', account_name: 'Jo', account_number: '012', reference: 'dd'}, {amount: 4200, description: 'Rent', bsb: '123-457', account_name: 'Jo', account_number: '013'}, ['amount', 'bsb', 'account_number']],
  ] as const)('%s %j against %j differs in %j', (kind, fields, record, differing) => {
    expect(seedDifferences(kind, fields, record).map(({field}) => field)).toEqual(differing)
  })

  it('names each field with the file\'s value and the gateway\'s', () => {
    const differences = seedDifferences('plan', {name: 'Gold', amount: 3000, description: 'New'}, {name: 'Gold', amount: 2500, description: 'Old'})
    expect(describeSeedDifferences(differences)).toBe('description: the file has "New", the gateway "Old"; amount: the file has 3000, the gateway 2500')
  })
})

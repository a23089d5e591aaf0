import {describe, expect, it} from 'vitest'
import {customerBody, customerChanges} from '../../../src/operations/customers.js'

const required = {
  'first-name': 'Jane',
  'last-name': 'Citizen',
  reference: 'cust-1',
  email: 'jane@example.com',
  'card-number': '4242424242424242',
  'card-expiry': '12/2030',
  cvv: '123',
}

describe('customer create body (contract §2.6)', () => {
  it('nests the card, with the customer name as card holder by default, and sends no address when none is given', () => {
    expect(customerBody(required)).toEqual({
      first_name: 'Jane',
      last_name: 'Citizen',
      reference: 'cust-1',
      email: 'jane@example.com',
      card: {card_holder: 'Jane Citizen', card_number: '4242424242424242', expiry_date: '12/2030', cvv: '123'},
    })
  })

  it('takes --card-holder, --ip-address and the address fields given', () => {
    expect(customerBody({...required, 'card-holder': 'J Citizen', 'ip-address': '203.0.113.9', city: 'Sydney', postcode: '2000', country: 'AU'})).toEqual({
      first_name: 'Jane',
      last_name: 'Citizen',
      reference: 'cust-1',
      email: 'jane@example.com',
      ip_address: '203.0.113.9',
      card: {card_holder: 'J Citizen', card_number: '4242424242424242', expiry_date: '12/2030', cvv: '123'},
      address: {city: 'Sydney', postcode: '2000', country: 'AU'},
    })
  })
})

describe('customer update body', () => {
  it.each([
    ['one field', {email: 'new@example.com'}, {email: 'new@example.com'}],
    ['a blank field is sent, for the gateway to judge', {'first-name': ''}, {first_name: ''}],
    ['a new card without a name given: no card holder, the gateway keeps the name', {'card-number': '5123456789012346', 'card-expiry': '05/2031', cvv: '999'}, {card: {card_number: '5123456789012346', expiry_date: '05/2031', cvv: '999'}}],
    ['a new card with a new name', {'first-name': 'Janet', 'last-name': 'Doe', 'card-number': '5123456789012346', 'card-expiry': '05/2031', cvv: '999'}, {first_name: 'Janet', last_name: 'Doe', card: {card_holder: 'Janet Doe', card_number: '5123456789012346', expiry_date: '05/2031', cvv: '999'}}],
    ['address fields only', {address: '1 George St', state: 'NSW'}, {address: {address: '1 George St', state: 'NSW'}}],
  ])('%s', (_, flags, expected) => {
    expect(customerChanges(flags)).toEqual(expected)
  })
})

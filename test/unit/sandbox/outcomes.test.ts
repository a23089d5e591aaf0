import {describe, expect, it} from 'vitest'
import {outcomeForCode} from '../../../src/api/schemas/test-outcomes.js'
import {purchaseOutcome} from '../../../src/sandbox/domain/outcomes.js'

describe('outcomeForCode', () => {
  it.each([
    ['00', true, 'Approved'],
    ['08', true, 'Approved'],
    ['10', true, 'Approved'],
    ['11', true, 'Approved'],
    ['16', true, 'Approved'],
    ['01', false, 'Refer to Card Issuer'],
    ['02', false, 'Refer to Card Issuer'],
    ['04', false, 'Refer to Card Issuer'],
    ['05', false, 'Refer to Card Issuer'],
    ['07', false, 'Refer to Card Issuer'],
    ['03', false, 'No Merchant'],
    ['06', false, 'Merchant/Acquirer Error'],
    ['09', false, 'Acquirer Busy'],
    ['12', false, 'Invalid Transaction'],
    ['13', false, 'Invalid Amount'],
    ['14', false, 'Invalid Card Number'],
    ['15', false, 'No Issuer'],
    ['31', false, 'Bank Not Supported'],
    ['33', false, 'Expired Card'],
    ['54', false, 'Expired Card'],
    ['51', false, 'Insufficient Funds'],
    ['90', false, 'Declined - Please Retry'],
    ['17', false, 'Declined'],
    ['50', false, 'Declined'],
    ['99', false, 'Declined'],
  ])('%s: approved %s, %s', (responseCode, approved, message) => {
    expect(outcomeForCode(responseCode)).toEqual({approved, responseCode, message})
  })
})

describe('purchaseOutcome', () => {
  it.each([
    // The cents decide on the cards without a set answer: the notes' table, 05 included (the PHP library's live test: 5555…4444 at 100.05 is `Refer to Card Issuer`).
    ['424242XXXXXX4242', 1000, true, '00', 'Approved'],
    ['424242XXXXXX4242', 0, true, '00', 'Approved'],
    ['424242XXXXXX4242', 10051, false, '51', 'Insufficient Funds'],
    ['555555XXXXXX4444', 10005, false, '05', 'Refer to Card Issuer'],
    ['555555XXXXXX4444', 1010, true, '10', 'Approved'],
    ['411111XXXXXX1111', 1056, false, '56', 'Declined'],
    ['411111XXXXXX1111', 208, true, '08', 'Approved'],
    // gateway-beyond.md §14.4: 5123…2346 and 4005…0001 approved with 00 whatever the cents.
    ['512345XXXXXX2346', 1000, true, '00', 'Approved'],
    ['512345XXXXXX2346', 10051, true, '00', 'Approved'],
    ['512345XXXXXX2346', 123, true, '00', 'Approved'],
    ['400555XXXXXX0001', 7, true, '00', 'Approved'],
    ['400555XXXXXX0001', 1095, true, '00', 'Approved'],
    // §14.5: the decline card answered 05 with `Declined`, not the table's `Refer to Card Issuer`.
    ['455701XXXXXX8902', 1000, false, '05', 'Declined'],
    ['455701XXXXXX8902', 1051, false, '05', 'Declined'],
  ])('%s for %i: %s %s %s', (masked, amount, approved, responseCode, message) => {
    expect(purchaseOutcome(masked, amount)).toEqual({approved, responseCode, message})
  })
})

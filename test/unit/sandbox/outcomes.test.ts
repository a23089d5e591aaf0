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
    ['512345XXXXXX2346', 1000, true, '00', 'Approved'],
    ['512345XXXXXX2346', 0, true, '00', 'Approved'],
    ['512345XXXXXX2346', 10051, false, '51', 'Insufficient Funds'],
    ['512345XXXXXX2346', 1005, false, '05', 'Refer to Card Issuer'],
    ['512345XXXXXX2346', 208, true, '08', 'Approved'],
    ['400555XXXXXX0001', 7, false, '07', 'Refer to Card Issuer'],
    ['455701XXXXXX8902', 1000, false, '99', 'Declined'],
    ['455701XXXXXX8902', 1051, false, '99', 'Declined'],
  ])('%s for %i: %s %s %s', (masked, amount, approved, responseCode, message) => {
    expect(purchaseOutcome(masked, amount)).toEqual({approved, responseCode, message})
  })
})

import CardGet from '../../../src/commands/card/get.js'
import CardList from '../../../src/commands/card/list.js'
import CardTokenize from '../../../src/commands/card/tokenize.js'
import CardUpdate from '../../../src/commands/card/update.js'
import {liveTarget} from './run-command.js'
import {parsesAs} from './parse-table.js'

const card = {card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'}
const cardFlags = ['--card-holder', 'Jane Citizen', '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123']

parsesAs('card tokenize', CardTokenize, [
  {argv: cardFlags, input: card},
  {argv: ['--card', '-'], stdin: JSON.stringify(card), input: card},
  {argv: ['--card', '-'], stdin: JSON.stringify(card), target: liveTarget, input: card},
  {argv: cardFlags.slice(0, 6), usage: 'give the card: --card-holder, --card-number, --card-expiry and --cvv, or --card - with the card as JSON on stdin'},
  {argv: ['--card', '-'], stdin: JSON.stringify({...card, cvv: undefined}), usage: 'give the card: --card-holder, --card-number, --card-expiry and --cvv, or --card - with the card as JSON on stdin'},
  {argv: ['--card', '-'], stdin: JSON.stringify({...card, card_number: '1234'}), usage: 'the card on stdin: --card-number must be 12 to 19 digits (spaces and dashes are ignored)'},
  {argv: cardFlags, target: liveTarget, usage: '--card-number and --cvv cannot be given on the command line with a live profile: arguments stay in shell history and show in ps'},
  {argv: ['--card', '-', '--cvv', '123'], stdin: JSON.stringify(card), usage: '--cvv cannot also be provided when using --card'},
  {argv: [], usage: 'give the card: --card-holder, --card-number, --card-expiry and --cvv, or --card - with the card as JSON on stdin'},
])

parsesAs('card get', CardGet, [
  {argv: ['customer-42'], input: {ids: ['customer-42'], input: undefined, concurrency: undefined, ownFields: false}},
  {argv: ['customer-42', 'customer-43', '--concurrency', '2'], input: {ids: ['customer-42', 'customer-43'], input: undefined, concurrency: 2, ownFields: false}},
  {argv: ['--input', 'cards.txt'], input: {ids: [], input: 'cards.txt', concurrency: undefined, ownFields: false}},
])

parsesAs('card update', CardUpdate, [
  {argv: ['8c2dbc8b-1', '--alias', 'customer-42'], input: {token: '8c2dbc8b-1', alias: 'customer-42', cardExpiry: undefined}},
  {argv: ['customer-42', '--card-expiry', '01/31'], input: {token: 'customer-42', alias: undefined, cardExpiry: '01/2031'}},
  {argv: ['customer-42'], usage: 'At least one of the following must be provided: --alias, --card-expiry'},
  {argv: ['customer-42', '--alias', ''], usage: '--alias must not be blank'},
  {argv: ['--alias', 'customer-42'], usage: 'Missing 1 required arg:\ntoken  card token or alias'},
])

parsesAs('card list', CardList, [
  {argv: [], input: {}},
  {argv: ['--card', '4242', '--holder', 'citizen', '-L', '3'], input: {card: '4242', holder: 'citizen', limit: 3}},
  {argv: ['--from', 'today'], usage: 'unknown flag: --from'},
])

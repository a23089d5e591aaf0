import WebhookCreate from '../../../src/commands/webhook/create.js'
import WebhookDelete from '../../../src/commands/webhook/delete.js'
import WebhookList from '../../../src/commands/webhook/list.js'
import {liveTarget} from './run-command.js'
import {parsesAs} from './parse-table.js'

parsesAs('webhook create', WebhookCreate, [
  {argv: ['--url', 'https://example.com/hooks'], input: {address: 'https://example.com/hooks', events: [], name: undefined, environment: 'sandbox', auth: undefined}},
  {argv: ['--url', 'https://example.com/hooks', '--event', 'charge:failed', '--event', 'card:expired', '--name', 'Billing'], input: {address: 'https://example.com/hooks', events: ['charge:failed', 'card:expired'], name: 'Billing', environment: 'sandbox', auth: undefined}},
  {argv: ['--url', 'https://example.com/plans', '--event', 'payment_plan_payment:declined', '--event', 'charge:failed'], input: {address: 'https://example.com/plans', events: ['payment_plan_payment:declined', 'charge:failed'], name: undefined, environment: 'sandbox', auth: undefined}},
  {argv: ['--url', 'http://127.0.0.1:4242/', '--auth', '-'], stdin: 'hooks:s3cret\n', input: {address: 'http://127.0.0.1:4242/', events: [], name: undefined, environment: 'sandbox', auth: {username: 'hooks', password: 's3cret'}}},
  {argv: ['--url', 'https://example.com/hooks', '--auth', 'hooks:s3cret'], target: liveTarget, input: {address: 'https://example.com/hooks', events: [], name: undefined, environment: 'live', auth: {username: 'hooks', password: 's3cret'}}},
  {argv: ['--url', 'https://example.com/hooks', '--name', ' '], input: {address: 'https://example.com/hooks', events: [], name: undefined, environment: 'sandbox', auth: undefined}},
  {argv: ['--url', 'ftp://example.com/'], usage: '--url must be an http:// or https:// URL, got "ftp://example.com/"'},
  {argv: ['--url', 'https://example.com/hooks', '--event', 'charge:refunded'], usage: 'Expected --event=charge:refunded to be one of: charge:pending, charge:successful, charge:retry, charge:failed, card:expiring, card:expired, payment_plan_payment:completed, payment_plan_payment:declined, payment_plan_payment:error'},
  {argv: ['--url', 'https://example.com/hooks', '--auth', 'hooks'], usage: '--auth must be USER:PASS'},
  {argv: [], usage: 'Missing required flag url'},
])

parsesAs('webhook delete', WebhookDelete, [
  {argv: ['071-WH-1'], input: '071-WH-1'},
  {argv: [], usage: 'Missing 1 required arg:\nid  web hook id, as gw webhook list shows it'},
])

parsesAs('webhook list', WebhookList, [
  {argv: [], input: {}},
  {argv: ['--all'], input: {all: true}},
  {argv: ['--reference', 'x'], usage: 'unknown flag: --reference'},
])

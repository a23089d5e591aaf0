import SandboxClock from '../../../src/commands/sandbox/clock.js'
import SandboxClockAdvance from '../../../src/commands/sandbox/clock/advance.js'
import SandboxDeliveries from '../../../src/commands/sandbox/deliveries.js'
import SandboxFaultAdd from '../../../src/commands/sandbox/fault/add.js'
import SandboxFaultClear from '../../../src/commands/sandbox/fault/clear.js'
import SandboxFaultList from '../../../src/commands/sandbox/fault/list.js'
import SandboxLogs from '../../../src/commands/sandbox/logs.js'
import SandboxRedeliver from '../../../src/commands/sandbox/redeliver.js'
import SandboxSeed from '../../../src/commands/sandbox/seed.js'
import SandboxStart from '../../../src/commands/sandbox/start.js'
import SandboxStatus from '../../../src/commands/sandbox/status.js'
import SandboxStop from '../../../src/commands/sandbox/stop.js'
import SandboxTrigger from '../../../src/commands/sandbox/trigger.js'
import {grammarOf} from '../../../src/cli/startup/argv.js'
import {parsesAs} from './parse-table.js'

const started = {
  name: 'local',
  port: 8787,
  host: '127.0.0.1',
  allowedHosts: [],
  allowedOrigins: [],
  mode: 'sandbox' as const,
  dialect: 'contract' as const,
  stateFile: undefined,
  openTestMerchant: undefined,
  merchants: undefined,
  webhooks: undefined,
  webhookBackoffMs: undefined,
  requestLog: true,
  processingWindowMs: 2000,
  webHookOrder: 'oldest' as const,
  detach: undefined,
  restart: undefined,
  detachedChild: undefined,
  verbose: undefined,
  grammar: grammarOf(SandboxStart),
}

parsesAs('sandbox start', SandboxStart, [
  {argv: [], input: {...started, argv: []}},
  {
    argv: ['--name', 'rehearsal', '--port', '0', '--dialect', 'live', '--mode', 'live', '--state', 'gw.json', '--detach'],
    input: {...started, name: 'rehearsal', port: 0, dialect: 'live', mode: 'live', stateFile: 'gw.json', detach: true, argv: ['--name', 'rehearsal', '--port', '0', '--dialect', 'live', '--mode', 'live', '--state', 'gw.json', '--detach']},
  },
  {
    argv: ['--merchant', 'ACME:s3cret', '--webhook', 'http://127.0.0.1:4242/hooks', '--allow-host', 'Sandbox', '--allow-origin', 'http://localhost:3000/', '--no-request-log'],
    input: {
      ...started,
      merchants: [{username: 'ACME', token: 's3cret'}],
      webhooks: ['http://127.0.0.1:4242/hooks'],
      allowedHosts: ['sandbox'],
      allowedOrigins: ['http://localhost:3000'],
      requestLog: false,
      argv: ['--merchant', 'ACME:s3cret', '--webhook', 'http://127.0.0.1:4242/hooks', '--allow-host', 'Sandbox', '--allow-origin', 'http://localhost:3000/', '--no-request-log'],
    },
  },
  {argv: ['--verbose', '--restart'], input: {...started, verbose: true, restart: true, argv: ['--verbose', '--restart']}},
  {argv: ['--processing-window-ms', '0'], input: {...started, processingWindowMs: 0, argv: ['--processing-window-ms', '0']}},
  {argv: ['--rate-limit', '100', '--latency', '150'], input: {...started, rateLimit: 100, latencyMs: 150, argv: ['--rate-limit', '100', '--latency', '150']}},
  {argv: ['--web-hook-order', 'newest'], input: {...started, webHookOrder: 'newest' as const, argv: ['--web-hook-order', 'newest']}},
  {argv: ['--web-hook-order', 'random'], usage: 'Expected --web-hook-order=random to be one of: oldest, newest'},
  {argv: ['--rate-limit', '0'], usage: '--rate-limit: Expected an integer greater than or equal to 1 but received: 0'},
  {argv: ['--latency', '60001'], usage: '--latency: Expected an integer less than or equal to 60000 but received: 60001'},
  {argv: ['--processing-window-ms', '600001'], usage: '--processing-window-ms: Expected an integer less than or equal to 600000 but received: 600001'},
  {argv: ['--merchant', 'ACME'], usage: '--merchant must be USER:TOKEN, got "ACME"'},
  {argv: ['--merchant', 'TEST:other'], usage: '--merchant TEST already exists (TEST:TEST)'},
  // No token need be in argv, which ps shows to every user: stdin or a file, one USER:TOKEN a line.
  {
    argv: ['--merchant', '-', '--merchant', 'SHOP:x'],
    stdin: '# merchants of the rehearsal\nACME:s3cret\r\n\nBETA:p:w\n',
    input: {...started, merchants: [{username: 'ACME', token: 's3cret'}, {username: 'BETA', token: 'p:w'}, {username: 'SHOP', token: 'x'}], argv: ['--merchant', '-', '--merchant', 'SHOP:x']},
  },
  {argv: ['--merchant', '-'], stdin: 'ACME:s3cret\nnocolon-token\n', usage: '--merchant - (stdin), line 2 must be USER:TOKEN'},
  {argv: ['--merchant', '-'], stdin: '\n# none\n', usage: '--merchant - (stdin) holds no USER:TOKEN line'},
  {argv: ['--merchant', '-', '--merchant', '-'], stdin: 'ACME:s3cret\n', usage: '--merchant - is given twice: stdin is read once'},
  {argv: ['--merchant', '-'], stdin: 'TEST:x\n', usage: '--merchant - (stdin), line 1: merchant TEST already exists (TEST:TEST)'},
  {argv: ['--merchant', 'ACME:a', '--merchant', 'ACME:b'], usage: '--merchant ACME is given twice'},
  {argv: ['--merchant', '@/no/such/merchants.txt'], usage: '--merchant @/no/such/merchants.txt cannot be read: no such file'},
  {argv: ['--host', '0.0.0.0', '--open-test-merchant'], input: {...started, host: '0.0.0.0', openTestMerchant: true, argv: ['--host', '0.0.0.0', '--open-test-merchant']}},
  {argv: ['--name', '-x'], usage: '--name must be a letter or digit, then letters, digits, _ or - (40 at most), got "-x"'},
  {argv: ['--port', '70000'], usage: '--port: Expected an integer less than or equal to 65535 but received: 70000'},
  {argv: ['--dialect', 'gateway'], usage: 'Expected --dialect=gateway to be one of: contract, live'},
  {argv: ['--allow-origin', 'localhost'], usage: '--allow-origin must be an http:// or https:// origin, got "localhost"'},
])

parsesAs('sandbox stop', SandboxStop, [
  {argv: [], input: {name: 'local'}},
  {argv: ['--name', 'rehearsal'], input: {name: 'rehearsal'}},
  {argv: ['--all'], input: {all: true}},
  {argv: ['--all', '--name', 'rehearsal'], usage: '--name cannot also be provided when using --all'},
])

parsesAs('sandbox status', SandboxStatus, [
  {argv: [], input: undefined},
  {argv: ['--name', 'rehearsal'], input: 'rehearsal'},
  {argv: ['--name', 'a b'], usage: '--name must be a letter or digit, then letters, digits, _ or - (40 at most), got "a b"'},
])

parsesAs('sandbox clock', SandboxClock, [
  {argv: [], input: undefined},
  {argv: ['advance'], usage: 'gw sandbox clock takes no argument "advance"'},
])

parsesAs('sandbox clock advance', SandboxClockAdvance, [
  {argv: ['--days', '30'], input: {days: 30}},
  {argv: ['--to', '2030-02-28'], input: {to: '2030-02-28'}},
  {argv: [], usage: 'Exactly one of the following must be provided: --days, --to'},
  {argv: ['--days', '0'], usage: '--days: Expected an integer greater than or equal to 1 but received: 0'},
  {argv: ['--to', '2030-02-30'], usage: '--to must be a date as YYYY-MM-DD, got "2030-02-30"'},
  {argv: ['--days', '1', '--to', '2030-02-28'], usage: '--days cannot also be provided when using --to\n--to cannot also be provided when using --days'},
])

parsesAs('sandbox trigger', SandboxTrigger, [
  {argv: ['charge:successful'], input: {event: 'charge:successful', webhook: undefined}},
  {argv: ['card:expired', '--webhook', 'http://127.0.0.1:4242/'], input: {event: 'card:expired', webhook: 'http://127.0.0.1:4242/'}},
  {argv: ['charge:refunded'], usage: 'Expected charge:refunded to be one of: charge:pending, charge:successful, charge:retry, charge:failed, card:expiring, card:expired, payment_plan_payment:completed, payment_plan_payment:declined, payment_plan_payment:error'},
  {argv: [], usage: 'Missing 1 required arg:\nevent  (charge:pending|charge:successful|charge:retry|charge:failed|card:expiring|card:expired|payment_plan_payment:completed|payment_plan_payment:declined|payment_plan_payment:error)\n       event to send'},
])

parsesAs('sandbox deliveries', SandboxDeliveries, [
  {argv: [], input: {event: undefined, status: undefined}},
  {argv: ['--event', 'charge:failed', '--status', 'pending'], input: {event: 'charge:failed', status: 'pending'}},
  {argv: ['--status', 'lost'], usage: 'Expected --status=lost to be one of: pending, delivered, failed'},
])

parsesAs('sandbox redeliver', SandboxRedeliver, [
  {argv: ['dl-1'], input: 'dl-1'},
  {argv: [], usage: 'Missing 1 required arg:\nid  id of the delivery, as gw sandbox deliveries lists it'},
])

const filter = {status: undefined, path: undefined, merchant: undefined, limit: 30}

parsesAs('sandbox logs', SandboxLogs, [
  {argv: [], input: {filter, follow: undefined}},
  {argv: ['-f', '--status', '4xx,503', '--path', '/v1.0/purchases', '--merchant', 'ACME', '-L', '5'], input: {filter: {status: ['4xx', '503'], path: '/v1.0/purchases', merchant: 'ACME', limit: 5}, follow: true}},
  {argv: ['--status', '6xx'], usage: '--status must be a status class such as 4xx, a status such as 404, or several separated by commas, not "6xx"'},
  {argv: ['--limit', '5001'], usage: '--limit: Expected an integer less than or equal to 5000 but received: 5001'},
])

const fixtures = {steps: [{name: 'gold', create: 'plan' as const, fields: {name: 'Gold', amount: 2500, reference: 'gold', description: 'Gold plan'}}]}

parsesAs('sandbox seed', SandboxSeed, [
  {argv: ['-'], stdin: JSON.stringify(fixtures), input: {steps: [{step: 1, ...fixtures.steps[0]!}], source: 'stdin', check: undefined}},
  {argv: ['-', '--check'], stdin: JSON.stringify(fixtures), input: {steps: [{step: 1, ...fixtures.steps[0]!}], source: 'stdin', check: true}},
  {argv: ['-'], stdin: '[]', usage: 'stdin must be an object with a list of steps'},
  {argv: ['-'], stdin: JSON.stringify({steps: [{name: 'gold', create: 'plan', fields: {name: 'Gold'}}]}), usage: 'stdin has 3 problems; nothing was sent:\n  step 1 "gold" (plan): fields.amount is required\n  step 1 "gold" (plan): fields.reference is required\n  step 1 "gold" (plan): fields.description is required'},
  {argv: [], usage: 'gw sandbox seed needs a fixtures FILE, or --purchases N for a quick history'},
  // A quick history: what is left out the local gateway makes as it does by default.
  {argv: ['--purchases', '200'], input: {history: {purchases: 200}}},
  {
    argv: ['--purchases', '10000', '--refunds', '100000', '--days', '60', '--cards', '6', '--reference-prefix', 'load'],
    input: {history: {purchases: 10_000, refunds: 100_000, days: 60, cards: 6, reference_prefix: 'load'}},
  },
  {argv: ['--refunds', '10'], usage: '--refunds makes a quick history with --purchases'},
  {argv: ['-', '--purchases', '10'], stdin: JSON.stringify(fixtures), usage: 'gw sandbox seed takes a fixtures file or --purchases, not both: - was given with --purchases'},
  {argv: ['--purchases', '10', '--check'], usage: '--check checks a fixtures file, and a quick history has none'},
  {argv: ['--purchases', '0'], usage: '--purchases must be from 1 to 200000, got 0'},
  {argv: ['--purchases', '10', '--refunds', '200001'], usage: '--refunds must be from 0 to 200000, got 200001'},
  {argv: ['--purchases', '10', '--days', '3661'], usage: '--days must be from 1 to 3660, got 3661'},
  {argv: ['--purchases', '10', '--cards', '0'], usage: '--cards must be from 1 to 100, got 0'},
  {argv: ['--purchases', '10', '--reference-prefix', ' '], usage: '--reference-prefix must be 1 to 64 characters, got 1'},
])

parsesAs('sandbox fault add', SandboxFaultAdd, [
  {argv: ['--method', 'post', '--path', '/v1.0/purchases', '--action', 'drop-after'], input: {method: 'POST', path: '/v1.0/purchases', action: 'drop-after', times: 1}},
  {argv: ['--method', 'GET', '--path', '/v1.0/purchases?offset=50&', '--action', 'status', '--status', '503', '--html', '--times', '3'], input: {method: 'GET', path: '/v1.0/purchases?offset=50&', action: 'status', times: 3, status: 503, html: true}},
  {argv: ['--method', 'POST', '--path', '/v1.0/refunds', '--action', 'delay', '--delay-ms', '65000'], input: {method: 'POST', path: '/v1.0/refunds', action: 'delay', times: 1, delayMs: 65_000}},
  {argv: ['--method', 'POST', '--path', '/v1.0/refunds', '--action', 'status'], usage: '--action status needs --status, the HTTP status to answer'},
  {argv: ['--method', 'POST', '--path', '/v1.0/refunds', '--action', 'delay'], usage: '--action delay needs --delay-ms, how long to wait before answering'},
  {argv: ['--method', 'POST', '--path', '/v1.0/refunds', '--action', 'drop-before', '--status', '503'], usage: '--status and --html go with --action status, not drop-before'},
  {argv: ['--method', 'POST', '--path', '/v1.0/refunds', '--action', 'status', '--status', '503', '--delay-ms', '5'], usage: '--delay-ms goes with --action delay, not status'},
  {argv: ['--method', 'POST', '--path', 'v1.0/refunds', '--action', 'drop-before'], usage: '--path must start with /, got "v1.0/refunds"'},
  // Without --retry-after it sends none: gw's own backoff is what is tested.
  {argv: ['--method', 'GET', '--path', '/v1.0/purchases', '--action', 'rate-limit'], input: {method: 'GET', path: '/v1.0/purchases', action: 'rate-limit', times: 1}},
  {
    argv: ['--method', 'POST', '--path', '/v1.0/refunds', '--action', 'rate-limit', '--retry-after', '2', '--http-date', '--unavailable', '--times', '2'],
    input: {method: 'POST', path: '/v1.0/refunds', action: 'rate-limit', times: 2, retryAfter: 2, httpDate: true, unavailable: true},
  },
  {argv: ['--method', 'GET', '--path', '/v1.0/purchases', '--action', 'rate-limit', '--http-date'], usage: '--http-date needs --retry-after, which it changes'},
  {argv: ['--method', 'GET', '--path', '/v1.0/purchases', '--action', 'rate-limit', '--unavailable'], usage: '--unavailable needs --retry-after, which it changes'},
  {argv: ['--method', 'GET', '--path', '/v1.0/purchases', '--action', 'status', '--status', '503', '--retry-after', '2'], usage: '--retry-after and --http-date and --unavailable go with --action rate-limit, not status'},
  {argv: ['--method', 'GET', '--path', '/v1.0/purchases', '--action', 'rate-limit', '--retry-after', '86401'], usage: '--retry-after: Expected an integer less than or equal to 86400 but received: 86401'},
])

parsesAs('sandbox fault list', SandboxFaultList, [
  {argv: [], input: undefined},
  {argv: ['all'], usage: 'gw sandbox fault list takes no argument "all"'},
])

parsesAs('sandbox fault clear', SandboxFaultClear, [
  {argv: [], input: undefined},
  {argv: ['all'], usage: 'gw sandbox fault clear takes no argument "all"'},
])

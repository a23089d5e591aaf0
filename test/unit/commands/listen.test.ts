import Listen from '../../../src/commands/listen.js'
import ListenReplay from '../../../src/commands/listen/replay.js'
import {parsesAs} from './parse-table.js'

const listening = {
  host: '127.0.0.1',
  port: 4242,
  path: '/',
  allowedHosts: [],
  allowedOrigins: [],
  auth: undefined,
  events: [],
  forwardTo: undefined,
  forwardTimeoutMs: 30_000,
  ackAlways: undefined,
  save: undefined,
  receiveTimeoutMs: 10_000,
  register: undefined,
}

parsesAs('listen', Listen, [
  {argv: [], input: listening},
  {argv: ['--port', '0', '--path', 'hooks', '--events', 'charge:*,card:expired', '--save', 'events.ndjson'], input: {...listening, port: 0, path: '/hooks', events: ['charge:*,card:expired'], save: 'events.ndjson'}},
  {argv: ['--forward-to', 'localhost:3000/hooks', '--forward-timeout', '5', '--ack-always'], input: {...listening, forwardTo: 'http://localhost:3000/hooks', forwardTimeoutMs: 5000, ackAlways: true}},
  {argv: ['--auth', '-', '--register', '--receive-timeout', '2'], stdin: 'hooks:s3cret\n', input: {...listening, auth: {username: 'hooks', password: 's3cret'}, register: true, receiveTimeoutMs: 2000}},
  {argv: ['--no-register', '--host', '0.0.0.0', '--allow-host', 'gw.internal', '--allow-origin', 'http://localhost:3000'], input: {...listening, register: false, host: '0.0.0.0', allowedHosts: ['gw.internal'], allowedOrigins: ['http://localhost:3000']}},
  {argv: ['--print-secret'], input: {secret: 'print'}},
  {argv: ['--rotate-secret'], input: {secret: 'rotate'}},
  {argv: ['--rotate-secret', '--print-secret'], usage: '--print-secret cannot also be provided when using --rotate-secret'},
  {argv: ['--ack-always'], usage: 'All of the following must be provided when using --ack-always: --forward-to'},
  {argv: ['--forward-to', 'ftp://example.com'], usage: '--forward-to must be an http:// or https:// URL, got "ftp://example.com"'},
  {argv: ['--auth', '-'], stdin: 'hooks', usage: '--auth must be USER:PASS'},
  {argv: ['--port', '-1'], usage: '--port: Expected an integer greater than or equal to 0 but received: -1'},
])

parsesAs('listen replay', ListenReplay, [
  {argv: ['events.ndjson', '--forward-to', 'localhost:3000/hooks'], input: {file: 'events.ndjson', forwardTo: 'http://localhost:3000/hooks', forwardTimeoutMs: 30_000, events: []}},
  {argv: ['events.ndjson', '--forward-to', 'https://example.com/hooks', '--events', 'charge:failed', '--forward-timeout', '1'], input: {file: 'events.ndjson', forwardTo: 'https://example.com/hooks', forwardTimeoutMs: 1000, events: ['charge:failed']}},
  {argv: ['events.ndjson'], usage: 'Missing required flag forward-to'},
  {argv: ['--forward-to', 'localhost:3000'], usage: 'Missing 1 required arg:\nfile  NDJSON file written by gw listen --save\n\nNote: --events allows multiple values. Because of this you need to provide all arguments before providing that flag.\nAlternatively, you can use "--" to signify the end of the flags and the beginning of arguments.'},
])

import {describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/errors.js'
import {parseEventLog} from '../../../src/webhooks/event-log.js'
import {expectThrow} from '../../expect-error.js'

describe('parseEventLog', () => {
  it('reads the lines gw listen --save writes, skipping blank ones', () => {
    const line = {received_at: '2026-11-22T08:00:00.000Z', event: 'card:expired', mode: 'Sandbox', payload: [{id: 'C1'}], headers: {'x-service-mode': 'Sandbox'}}
    expect(parseEventLog(JSON.stringify(line) + '\n\n' + JSON.stringify({event: 'charge:pending'}) + '\n', 'f')).toEqual([
      line,
      {received_at: '', event: 'charge:pending', mode: null, payload: null, headers: {}},
    ])
  })

  it('names the line that is not an event', () => {
    expect(() => parseEventLog('{"event":"a"}\n{oops\n', 'events.ndjson')).toThrow(UsageError)
    expectThrow(() => parseEventLog('{"event":"a"}\n{oops\n', 'events.ndjson'), UsageError, 'events.ndjson line 2 is not JSON')
    expectThrow(() => parseEventLog('{"payload":[]}\n', 'events.ndjson'), UsageError, 'events.ndjson line 1 has no "event"')
    expectThrow(() => parseEventLog('null\n', 'events.ndjson'), UsageError, 'events.ndjson line 1 has no "event"')
  })
})

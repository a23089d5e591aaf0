import {describe, expect, it} from 'vitest'
import {FAULT_ACTION_NAMES, FAULT_PARAMETERS, parametersOf} from '../../../src/api/schemas/fault-actions.js'
import SandboxFaultAdd from '../../../src/commands/sandbox/fault/add.js'
import {edgeOf, type Fault, FaultList, parseFault} from '../../../src/sandbox/server/faults.js'

describe('the fault actions: one table, read by the local gateway and by gw sandbox fault add', () => {
  it('the gateway takes each action of the table, with the parameters the table gives it, and no other', () => {
    for (const action of FAULT_ACTION_NAMES) {
      const parameters = Object.fromEntries(parametersOf(action).map(({name, parameter}) => [name, 'range' in parameter && parameter.range ? parameter.range.min : true]))
      expect(parseFault({method: 'GET', path: '/v1.0', action, ...parameters})).toEqual({method: 'GET', path: '/v1.0', times: 1, action, ...parameters})
    }
    expect(() => parseFault({method: 'GET', path: '/v1.0', action: 'toString'})).toThrow(expect.objectContaining({errors: [`Action must be one of ${FAULT_ACTION_NAMES.join(', ')}`]}))
  })

  it("gw sandbox fault add offers the table's actions, in its order, and a flag for each parameter, named and bounded as the table says", () => {
    expect(SandboxFaultAdd.flags.action.options).toEqual(FAULT_ACTION_NAMES)
    for (const parameter of Object.values(FAULT_PARAMETERS)) {
      const flag = (SandboxFaultAdd.flags as Record<string, {type: string; min?: number; max?: number}>)[parameter.flag]
      expect(flag, parameter.flag).toBeDefined()
      if ('range' in parameter) expect(flag).toMatchObject({type: 'option', min: parameter.range.min, max: parameter.range.max})
      else expect(flag!.type).toBe('boolean')
    }
    for (const action of FAULT_ACTION_NAMES) expect(SandboxFaultAdd.description).toContain(`--action ${action} `)
  })
})

describe('parseFault', () => {
  it.each([
    [{method: 'post', path: '/v1.0/purchases', action: 'drop-after'}, {method: 'POST', path: '/v1.0/purchases', times: 1, action: 'drop-after'}],
    [{method: 'GET', path: '/v1.0', action: 'drop-before', times: 3}, {method: 'GET', path: '/v1.0', times: 3, action: 'drop-before'}],
    [{method: 'GET', path: '/v1.0', action: 'status', status: 503}, {method: 'GET', path: '/v1.0', times: 1, action: 'status', status: 503, html: false}],
    [
      {method: 'GET', path: '/v1.0', action: 'status', status: 500, html: true},
      {method: 'GET', path: '/v1.0', times: 1, action: 'status', status: 500, html: true},
    ],
    [{method: 'GET', path: '/v1.0', action: 'delay', delayMs: 0}, {method: 'GET', path: '/v1.0', times: 1, action: 'delay', delayMs: 0}],
    // No Retry-After: the client's own backoff is what is tested.
    [{method: 'GET', path: '/v1.0', action: 'rate-limit'}, {method: 'GET', path: '/v1.0', times: 1, action: 'rate-limit', httpDate: false, unavailable: false}],
    [
      {method: 'POST', path: '/v1.0/refunds', action: 'rate-limit', retryAfter: 3, httpDate: true, unavailable: true},
      {method: 'POST', path: '/v1.0/refunds', times: 1, action: 'rate-limit', retryAfter: 3, httpDate: true, unavailable: true},
    ],
  ])('%j', (input, fault) => {
    expect(parseFault(input)).toEqual(fault)
  })

  it.each([
    [{path: '/v1.0', action: 'drop-after'}, "Method can't be blank"],
    [{method: 'GET', path: 'v1.0', action: 'drop-after'}, 'Path must start with /'],
    [{method: 'GET', path: '/v1.0', action: 'drop-after', times: 0}, 'Times must be at least 1'],
    [{method: 'GET', path: '/v1.0', action: 'explode'}, 'Action must be one of drop-before, drop-after, status, delay, rate-limit'],
    [{method: 'GET', path: '/v1.0', action: 'rate-limit', retryAfter: -1}, 'RetryAfter must be from 0 to 86400 seconds (a day)'],
    [{method: 'GET', path: '/v1.0', action: 'rate-limit', retryAfter: 86_401}, 'RetryAfter must be from 0 to 86400 seconds (a day)'],
    [{method: 'GET', path: '/v1.0', action: 'rate-limit', httpDate: true}, 'HttpDate needs retryAfter'],
    [{method: 'GET', path: '/v1.0', action: 'rate-limit', unavailable: true}, 'Unavailable needs retryAfter'],
    [{method: 'GET', path: '/v1.0', action: 'status'}, 'Status must be an HTTP status from 200 to 599'],
    [{method: 'GET', path: '/v1.0', action: 'status', status: 99}, 'Status must be an HTTP status from 200 to 599'],
    [{method: 'GET', path: '/v1.0', action: 'delay'}, 'DelayMs must be from 0 to 600000 milliseconds (10 minutes)'],
    [{method: 'GET', path: '/v1.0', action: 'delay', delayMs: -1}, 'DelayMs must be from 0 to 600000 milliseconds (10 minutes)'],
    [{method: 'GET', path: '/v1.0', action: 'delay', delayMs: '5.5'}, 'DelayMs must be an integer'],
    [{method: 'GET', path: '/v1.0', action: 'delay', delayMs: 600_001}, 'DelayMs must be from 0 to 600000 milliseconds (10 minutes)'],
    [{method: 'GET', path: '/v1.0', action: 'status', status: 600}, 'Status must be an HTTP status from 200 to 599'],
  ])('%j is refused: %s', (input, message) => {
    expect(() => parseFault(input)).toThrow(expect.objectContaining({status: 400, errors: [message]}))
  })
})

describe('FaultList', () => {
  it('matches one page of a list when its path has a query, and any query when it has none', () => {
    const faults = new FaultList()
    faults.add(parseFault({method: 'GET', path: '/v1.0/purchases?offset=50&', action: 'status', status: 503, times: 5}))
    expect(faults.take('GET', '/v1.0/purchases?offset=0&limit=50')).toBeUndefined()
    expect(faults.take('GET', '/v1.0/purchases?offset=500&limit=50')).toBeUndefined()
    expect(faults.take('GET', '/v1.0/purchases?offset=50&limit=50&page=2')).toMatchObject({status: 503})
    faults.clear()
    faults.add(parseFault({method: 'GET', path: '/v1.0/purchases', action: 'status', status: 503}))
    expect(faults.take('GET', '/v1.0/purchases?offset=0&limit=50')).toMatchObject({status: 503})
  })

  it('matches method and path prefix, and uses a fault up after `times` requests', () => {
    const faults = new FaultList()
    faults.add(parseFault({method: 'POST', path: '/v1.0/purchases', action: 'drop-after', times: 2}))
    expect(faults.take('GET', '/v1.0/purchases/071-P-X')).toBeUndefined()
    expect(faults.take('POST', '/v1.0/refunds')).toBeUndefined()
    expect(faults.take('POST', '/v1.0/purchases.json')).toMatchObject({action: 'drop-after', times: 1})
    expect(faults.list()).toEqual([{method: 'POST', path: '/v1.0/purchases', times: 1, action: 'drop-after'}])
    expect(faults.take('POST', '/v1.0/purchases')).toMatchObject({action: 'drop-after', times: 0})
    expect(faults.take('POST', '/v1.0/purchases')).toBeUndefined()
    expect(faults.list()).toEqual([])
  })

  it('takes the first matching fault first, and clears all', () => {
    const faults = new FaultList()
    faults.add(parseFault({method: 'GET', path: '/v1.0', action: 'status', status: 503}))
    faults.add(parseFault({method: 'GET', path: '/v1.0', action: 'drop-before'}))
    expect(faults.take('GET', '/v1.0/purchases/x')?.action).toBe('status')
    expect(faults.take('GET', '/v1.0/purchases/x')?.action).toBe('drop-before')
    faults.add(parseFault({method: 'GET', path: '/v1.0', action: 'drop-before'}))
    faults.clear()
    expect(faults.take('GET', '/v1.0/purchases/x')).toBeUndefined()
  })
})

describe('a rate-limit fault', () => {
  it('dates its answer at the instant its HTTP-date Retry-After counts from; with seconds, leaves the Date to the server', () => {
    const refused = (fault: Fault) => edgeOf(fault).refuses!(fault)
    const dated = refused(parseFault({method: 'GET', path: '/v1.0', action: 'rate-limit', retryAfter: 2, httpDate: true}))
    const ahead = Date.parse(dated.headers['Retry-After']!) - Date.parse(dated.headers.Date!)
    expect(ahead).toBeGreaterThanOrEqual(2000)
    expect(ahead).toBeLessThanOrEqual(3000)
    expect(refused(parseFault({method: 'GET', path: '/v1.0', action: 'rate-limit', retryAfter: 2})).headers).toStrictEqual({'Retry-After': '2'})
  })
})

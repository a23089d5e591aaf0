import {describe, expect, it} from 'vitest'
import {placeGlobalFlags} from '../../../../src/cli/startup/argv.js'

describe('placeGlobalFlags', () => {
  it.each([
    [['--json', 'purchase', 'get', 'ID'], ['purchase', 'get', 'ID', '--json']],
    [['--profile', 'live', 'status'], ['status', '--profile', 'live']],
    [['--profile=live', '--verbose', 'status'], ['status', '--profile=live', '--verbose']],
    [['purchase', '--yes', 'create', '--amount', '1000'], ['purchase', 'create', '--yes', '--amount', '1000']],
    [['--no-input', 'refund', 'create', '--', '--json'], ['refund', 'create', '--no-input', '--', '--json']],
    [['--fields', 'id,amount', 'purchase', 'get', 'ID'], ['purchase', 'get', 'ID', '--fields', 'id,amount']],
    [['--fields=id', 'plan', 'list'], ['plan', 'list', '--fields=id']],
  ])('%j → %j', (argv, expected) => {
    expect(placeGlobalFlags(argv)).toEqual(expected)
  })

  it.each([
    [['purchase', 'get', 'ID', '--json']],
    [['--version']],
    [['--help', '--json']],
    [['api', 'POST', '/v1.0/purchases', '--data', '--json']],
    [['--profile']],
  ])('leaves %j as it is', (argv) => {
    expect(placeGlobalFlags(argv)).toEqual(argv)
  })
})

import {describe, expect, it} from 'vitest'
import {MERCHANTS_VARIABLE, detachedArguments, merchantsFromEnvironment, merchantsVariable} from '../../../src/sandbox/daemon.js'

describe('merchant credentials of a detached sandbox', () => {
  it('leave the command line, in both spellings, with --detach', () => {
    expect(detachedArguments(['--port', '0', '--merchant', 'ACME:s3cret', '--detach', '--merchant=SHOP:p:w', '--state', 's.json'])).toEqual([
      '--port',
      '0',
      '--state',
      's.json',
    ])
  })

  it('travel in the environment and are removed from it once read', () => {
    const merchants = [{username: 'ACME', token: 's3cret'}]
    const env: NodeJS.ProcessEnv = {...merchantsVariable(merchants)}
    expect(merchantsFromEnvironment(env)).toEqual(merchants)
    expect(env[MERCHANTS_VARIABLE]).toBeUndefined()
    expect(merchantsFromEnvironment(env)).toEqual([])
  })

  it('refuse a variable that is not a list of pairs', () => {
    expect(() => merchantsFromEnvironment({[MERCHANTS_VARIABLE]: '[{"username":"A"}]'})).toThrow(
      `${MERCHANTS_VARIABLE} must be a JSON list of {username, token}`,
    )
  })
})

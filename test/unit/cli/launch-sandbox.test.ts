import {describe, expect, it} from 'vitest'
import SandboxStart from '../../../src/commands/sandbox/start.js'
import {detachedArguments} from '../../../src/cli/launch-sandbox.js'
import {grammarOf} from '../../../src/cli/startup/argv.js'

const grammar = grammarOf(SandboxStart)

// A detached gateway's merchants travel in its environment (sandbox/server/daemon.ts): argv is shown by ps.
describe('the command line of a detached sandbox', () => {
  it('leaves out merchant credentials, in both spellings, and --detach', () => {
    expect(detachedArguments(['--port', '0', '--merchant', 'ACME:s3cret', '--detach', '--merchant=SHOP:p:w', '--state', 's.json'], grammar)).toEqual(['--port', '0', '--state', 's.json'])
  })

  it('leaves out every value of one --merchant, as oclif reads them all', () => {
    expect(detachedArguments(['--detach', '--merchant', 'ACME:s3cret', 'SHOP:pw', '--name', 'rehearsal'], grammar)).toEqual(['--name', 'rehearsal'])
  })

  it('keeps a value that only looks like a flag, and the words after --', () => {
    expect(detachedArguments(['--name', 'detach', '--detach', '--state', 'gw.json', '--', '--merchant'], grammar)).toEqual(['--name', 'detach', '--state', 'gw.json', '--', '--merchant'])
  })
})

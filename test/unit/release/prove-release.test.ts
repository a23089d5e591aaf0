import {describe, expect, it} from 'vitest'
import {quickStart} from '../../../scripts/prove-release.js'

// The README's quick start, as scripts/prove-release.js runs it with each release's gw on every OS: no shell.
describe("the README's quick start, as programs to run (scripts/prove-release.js)", () => {
  it('is the local gateway started (on a free port) and a purchase, quotes and $(date +%s) read as a shell reads them', () => {
    expect(quickStart(undefined, new Date('2026-11-28T00:00:00Z'))).toEqual([
      ['sandbox', 'start', '--detach', '--port', '0'],
      ['purchase', 'create', '--amount', '1000', '--reference', 'demo-1795824000', '--card-holder', 'Jane Citizen', '--card-number', '4242424242424242', '--card-expiry', '12/2030', '--cvv', '123'],
    ])
  })

  it('refuses a quick start of another shape, rather than prove something else', () => {
    expect(() => quickStart('## Quick start\n\n```sh\nnpm install -g gw && gw sandbox start\n```\n')).toThrow("the README's quick start changed shape: npm install -g gw && gw sandbox start")
    expect(() => quickStart('## Quick start\n\n```sh\nnpm ci && ./bin/run.js sandbox start --detach && curl http://x\n```\n')).toThrow("the README's quick start runs curl, not gw")
  })
})

import {describe, expect, it, vi} from 'vitest'
import {gatewayOutput} from '../../e2e/helpers.js'

// How a test waits for a starting local gateway's URL (helpers.ts startSandbox, startSandboxProcess).
describe('a starting gateway, as a test waits for it', () => {
  it('gives its URL once stdout holds it whole, however it came, and is never given up', async () => {
    const giveUp = vi.fn()
    const output = gatewayOutput(giveUp, 60_000)
    output.write('stderr', Buffer.from('Starting...\n'))
    output.write('stdout', Buffer.from('Local gateway listening on http://127.0.0.1:4'))
    output.write('stdout', Buffer.from('1234 \n'))
    await expect(output.url).resolves.toBe('http://127.0.0.1:41234')
    expect(giveUp).not.toHaveBeenCalled()
  })

  it('that prints no URL within the bound is given up, ended once, and the wait fails with what it said', async () => {
    const giveUp = vi.fn()
    const output = gatewayOutput(giveUp, 10)
    output.write('stderr', Buffer.from('the state file is locked\n'))
    await expect(output.url).rejects.toThrow('sandbox did not start within 10 ms: the state file is locked\n')
    expect(giveUp).toHaveBeenCalledTimes(1)
  })

  it('that ends first fails the wait with how it ended and what it said, and is not ended again', async () => {
    const giveUp = vi.fn()
    const output = gatewayOutput(giveUp, 60_000)
    output.write('stderr', Buffer.from('Error: port in use\n'))
    output.ended('SIGTERM')
    await expect(output.url).rejects.toThrow('sandbox exited with SIGTERM: Error: port in use\n')
    expect(giveUp).not.toHaveBeenCalled()
  })
})

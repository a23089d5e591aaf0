import {describe, expect, it} from 'vitest'
import {onlyOn} from '../only-on.js'

// The platform check a test that only some systems can run skips by (test/only-on.ts), the platform injected.
describe('a test only some systems run', () => {
  it('runs on those, and elsewhere is skipped, its name saying where and why', () => {
    expect(onlyOn(['linux'], '/dev/full is Linux’s', 'linux')).toEqual({skip: false, note: ''})
    expect(onlyOn(['linux'], '/dev/full is Linux’s', 'darwin')).toEqual({skip: true, note: ' (skipped on macOS: /dev/full is Linux’s)'})
    expect(onlyOn(['linux', 'darwin'], 'no SIGPIPE', 'win32')).toEqual({skip: true, note: ' (skipped on Windows: no SIGPIPE)'})
    expect(onlyOn(['linux'], 'why', 'freebsd')).toEqual({skip: true, note: ' (skipped on freebsd: why)'})
  })
})

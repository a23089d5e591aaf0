import {describe, expect, it} from 'vitest'
import {run} from '../../../scripts/registry-node.js'

// scripts/registry-node.js runs tar and npm to fetch a Node: a program that cannot start
// (a Windows without System32\tar.exe) is named, not a TypeError on the output it never had.
describe('a program scripts/registry-node.js runs', () => {
  it('that cannot start: says which, and why', () => {
    expect(() => run('/nowhere/tar.exe', ['-xzf', 'node.tgz'])).toThrow('/nowhere/tar.exe could not be started (ENOENT), to run: /nowhere/tar.exe -xzf node.tgz')
  })

  it('that fails: says how, with what it printed; and gives what it printed where it ends well', () => {
    expect(() => run(process.execPath, ['-e', 'console.error("no such package"); process.exit(3)'])).toThrow(/ failed \(exit 3\): no such package$/)
    expect(run(process.execPath, ['-e', 'process.stdout.write("ok")'])).toBe('ok')
  })
})

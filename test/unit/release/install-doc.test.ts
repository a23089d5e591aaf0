import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {pinFor, TARGETS} from '../../../scripts/registry-node.js'

// docs/install.md's PowerShell quick start cannot run here (no PowerShell): it is checked to be
// the README's quick start, command by command, in PowerShell's words.
const root = join(import.meta.dirname, '..', '..', '..')
const read = (file: string) => readFileSync(join(root, file), 'utf8')

describe('docs/install.md', () => {
  it("gives the README's quick start in PowerShell: each command of its line on a line of its own (Windows PowerShell 5 has no &&), node running bin/run.js, the time from .NET", () => {
    const readme = /## Quick start[\s\S]*?```sh\n(.+)\n```/.exec(read('README.md'))![1]!
    const powershell = /```powershell\n([\s\S]+?)\n```/.exec(read('docs/install.md'))![1]!
    const expected = readme
      .split(' && ')
      .map((command) => command.replace(/^\.\/bin\/run\.js /, 'node bin/run.js ').replace(/--reference demo-\$\(date \+%s\)/, '--reference "demo-$([DateTimeOffset]::Now.ToUnixTimeSeconds())"'))
    expect(powershell.split('\n')).toEqual(expected)
  })

  it('names the Node gw pins for each platform, and CONTRIBUTING.md too', () => {
    for (const target of TARGETS) {
      const {version} = pinFor(target)!
      expect(read('docs/install.md'), target).toContain(version)
      expect(read('CONTRIBUTING.md'), target).toContain(version)
    }
  })
})

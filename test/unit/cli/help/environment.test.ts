import {describe, expect, it} from 'vitest'
import {HELP_TOPICS} from '../../../../src/cli/help/topics.js'
import {platformOf} from '../../../../src/lib/platform.js'

// gw help environment names each system's real folders: its table is read here and held
// to the platform module's rule, which test/unit/lib/platform.test.ts holds to oclif's on each system.
describe('gw help environment: FOLDERS', () => {
  const text = HELP_TOPICS.environment.text()
  const table = text.slice(text.indexOf('FOLDERS'))
  const cells = (row: string) => table.split('\n').find((line) => line.startsWith(`  ${row} `))!.trim().split(/ {2,}/).slice(1)
  const columns = ['linux', 'darwin', 'win32'] as const

  it.each(['config', 'data', 'cache'] as const)('says where %s lives on Linux, macOS and Windows as gw finds it there', (kind) => {
    const said = cells(kind)
    expect(said).toHaveLength(3)
    columns.forEach((os, column) => {
      const platform = platformOf(os, undefined, () => '~')
      const byDefault = platform.folders({HOME: '~', LOCALAPPDATA: '%LOCALAPPDATA%'})[kind]
      const byXdg = platform.folders({HOME: '~', LOCALAPPDATA: '%LOCALAPPDATA%', [`XDG_${kind.toUpperCase()}_HOME`]: `$XDG_${kind.toUpperCase()}_HOME`})[kind]
      const cell = said[column]!
      if (os === 'win32') expect(cell, `${kind} on ${os}`).toBe(byDefault)
      else if (byXdg === byDefault) expect(cell, `${kind} on ${os}`).toBe(byDefault)
      else expect(cell, `${kind} on ${os}`).toBe(`${byXdg} (${byDefault})`)
    })
  })

  it('names the variables that move them', () => {
    for (const name of ['GW_CONFIG_DIR', 'GW_DATA_DIR', 'GW_CACHE_DIR', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'LOCALAPPDATA']) expect(text, name).toContain(name)
  })
})

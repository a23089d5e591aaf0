import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {mayNotify} from '../../../src/cli/startup/update-rule.js'
import {newer, noticeText, noticeUpdate, upgradeCommand} from '../../../src/cli/update-notice.js'

const repository = 'https://github.com/gw-cli/gw'

describe("the update notice's rules (src/cli/update-notice.ts)", () => {
  it('may show only with stdout and stderr at a terminal, outside CI, and without GW_NO_UPDATE_NOTIFIER', () => {
    const both = {stdout: true, stderr: true}
    expect(mayNotify({}, both)).toBe(true)
    expect(mayNotify({GW_NO_UPDATE_NOTIFIER: ''}, both)).toBe(true)
    for (const env of [{GW_NO_UPDATE_NOTIFIER: '1'}, {CI: 'true'}, {BUILD_NUMBER: '7'}, {RUN_ID: '7'}]) expect(mayNotify(env, both), JSON.stringify(env)).toBe(false)
    expect(mayNotify({}, {stdout: false, stderr: true})).toBe(false)
    expect(mayNotify({}, {stdout: true, stderr: false})).toBe(false)
  })

  it.each([
    ['/opt/homebrew/Cellar/gw/0.1.0/libexec/gw', false, 'brew upgrade gw'],
    ['/home/linuxbrew/.linuxbrew/Cellar/gw/0.1.0/libexec/gw', false, 'brew upgrade gw'],
    ['C:\\Users\\jane\\scoop\\apps\\gw\\0.1.0\\gw.exe', false, 'scoop update gw'],
    ['C:\\Users\\jane\\AppData\\Local\\Microsoft\\WinGet\\Packages\\gw-cli.gw_Microsoft.Winget.Source_8wekyb3d8bbwe\\gw-win-x64\\gw.exe', false, 'winget upgrade gw-cli.gw'],
    ['/usr/lib/node_modules/gw', false, 'npm install --global --allow-scripts=keytar gw@latest'],
    ['C:\\Users\\jane\\AppData\\Roaming\\npm\\node_modules\\gw', false, 'npm install --global --allow-scripts=keytar gw@latest'],
    ['/home/jane/src/gw', true, 'git pull && npm ci'],
    ['/usr/local/bin/gw', false, undefined],
  ])('names the upgrade of %s', (path, clone, command) => {
    expect(upgradeCommand({path, clone, repository})).toBe(command)
  })

  it("says the release's page, and where no package manager installed gw, to download it from there", () => {
    expect(noticeText({version: '0.1.0', path: '/usr/local/bin/gw', clone: false, repository}, '0.2.0')).toBe(
      "A new release of gw is available: 0.1.0 -> 0.2.0\nTo upgrade, download your platform's archive from https://github.com/gw-cli/gw/releases/tag/v0.2.0\n",
    )
  })

  it('compares releases by number, and a version of another shape is never newer', () => {
    expect([newer('0.10.0', '0.9.9'), newer('1.0.0', '0.99.99'), newer('0.1.1', '0.1.0')]).toEqual([true, true, true])
    expect([newer('0.1.0', '0.1.0'), newer('0.0.9', '0.1.0'), newer('1.0.0-beta.1', '0.1.0'), newer('latest', '0.1.0')]).toEqual([false, false, false, false])
  })

  it('shows what an earlier check found at most once a day, and starts a check at most once a day', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-update-'))
    const said: string[] = []
    const checks: string[] = []
    const run = (now: string) =>
      noticeUpdate({install: {version: '0.1.0', path: '/usr/lib/node_modules/gw', clone: false, repository}, env: {}, dataDir: () => dir, now: new Date(now), err: (text) => said.push(text), startCheck: (file) => checks.push(file)})
    run('2026-11-28T10:00:00Z')
    expect([said, checks]).toEqual([[], [join(dir, 'update-check.json')]])
    // What the background check writes.
    const file = join(dir, 'update-check.json')
    const state = JSON.parse(readFileSync(file, 'utf8')) as object
    expect(state).toEqual({checkedAt: '2026-11-28T10:00:00.000Z'})
    writeFileSync(file, JSON.stringify({...state, latest: '0.2.0'}))
    run('2026-11-28T11:00:00Z')
    run('2026-11-29T09:59:00Z')
    expect([said.length, checks.length]).toEqual([1, 1])
    run('2026-11-29T11:00:01Z')
    expect([said.length, checks.length]).toEqual([2, 2])
    expect(said[0]).toBe('A new release of gw is available: 0.1.0 -> 0.2.0\nTo upgrade, run: npm install --global --allow-scripts=keytar gw@latest\nhttps://github.com/gw-cli/gw/releases/tag/v0.2.0\n')
  })

  it('says nothing and fails nothing where its folder cannot be written', () => {
    const said: string[] = []
    // Its folder under a file: no folder can be made there.
    const file = join(mkdtempSync(join(tmpdir(), 'gw-update-')), 'a-file')
    writeFileSync(file, '')
    expect(() => noticeUpdate({install: {version: '0.1.0', path: '/x', clone: false, repository}, env: {}, dataDir: () => join(file, 'gw'), now: new Date(), err: (text) => said.push(text), startCheck: () => said.push('check')})).not.toThrow()
    expect(said).toEqual([])
  })
})

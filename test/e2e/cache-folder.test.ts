import {spawnSync} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

// The built gw and its cache folder (the folder's own rules: test/unit/cli/startup/cache-folder.test.ts).
const root = join(import.meta.dirname, '..', '..')
const require = createRequire(import.meta.url)

describe.skipIf(process.platform === 'win32')("gw's cache folder, where others can write it (POSIX; Windows tells no owners)", () => {
  it("gw --help never prints a root help planted in a cache folder others can write, nor saves one there", () => {
    // In this run's temporary folder, which the run removes (test/run-folder.ts).
    const cache = join(mkdtempSync(join(tmpdir(), 'gw-cache-')), 'gw')
    mkdirSync(cache)
    chmodSync(cache, 0o777)
    // A width no build saves beside the bundle: the help is looked for in the cache folder.
    const width = '123'
    const version = (require(join(root, 'package.json')) as {version: string}).version
    const build = `${version}-${statSync(join(root, 'dist', 'gw.cjs')).size}`
    writeFileSync(join(cache, `root-help-${build}-node${process.version}-${width}.txt`), 'PLANTED\n')
    const ran = spawnSync(process.execPath, [join(root, 'bin', 'run.js'), '--help'], {env: {...process.env, GW_CACHE_DIR: cache, OCLIF_COLUMNS: width}, encoding: 'utf8'})
    for (const name of readdirSync(join(root, 'dist')).filter((name) => name.endsWith(`-${width}.txt`))) rmSync(join(root, 'dist', name))
    expect(ran.status, ran.stderr).toBe(0)
    expect(ran.stdout).not.toContain('PLANTED')
    expect(ran.stdout).toContain('USAGE')
    expect(readdirSync(cache)).toEqual([`root-help-${build}-node${process.version}-${width}.txt`])
  })

})

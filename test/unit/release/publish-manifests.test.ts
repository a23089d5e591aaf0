import {execFileSync, spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

// scripts/publish-manifests.js as the release workflow runs it, a tap and a bucket being bare git
// repositories here, as GitHub's would be there.
const SCRIPT = join(import.meta.dirname, '..', '..', '..', 'scripts', 'publish-manifests.js')
const {version} = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as {version: string}

/** A bare repository with one commit, as a new tap or bucket is. */
function bareRepository(): string {
  const bare = mkdtempSync(join(tmpdir(), 'gw-tap-'))
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', bare])
  const seed = mkdtempSync(join(tmpdir(), 'gw-tap-seed-'))
  execFileSync('git', ['clone', '--quiet', bare, seed], {stdio: 'ignore'})
  writeFileSync(join(seed, 'README.md'), '# tap\n')
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {cwd: seed, stdio: 'ignore'})
  git('add', 'README.md')
  git('commit', '--quiet', '-m', 'start')
  git('push', '--quiet', 'origin', 'HEAD:main')
  return bare
}

const fileIn = (bare: string, path: string) => execFileSync('git', ['--git-dir', bare, 'show', `main:${path}`], {encoding: 'utf8'})

describe('the tap and the bucket, updated from the release (scripts/publish-manifests.js)', () => {
  it("commits gw.rb into the tap's Formula/ and gw.json into the bucket's bucket/, once", () => {
    const release = mkdtempSync(join(tmpdir(), 'gw-release-'))
    writeFileSync(join(release, 'gw.rb'), 'class Gw < Formula\nend\n')
    writeFileSync(join(release, 'gw.json'), '{"version": "x"}\n')
    const [tap, bucket] = [bareRepository(), bareRepository()]
    const env = {PATH: process.env.PATH, HOME: mkdtempSync(join(tmpdir(), 'gw-home-')), HOMEBREW_TAP_REPOSITORY: tap, HOMEBREW_TAP_TOKEN: 'not-a-secret', SCOOP_BUCKET_REPOSITORY: bucket, SCOOP_BUCKET_TOKEN: 'not-a-secret'}
    const first = spawnSync(process.execPath, [SCRIPT, '--dir', release], {env, encoding: 'utf8'})
    expect(first).toMatchObject({status: 0, stderr: '', stdout: `Homebrew tap: Formula/gw.rb is gw ${version}'s, pushed to ${tap}\nScoop bucket: bucket/gw.json is gw ${version}'s, pushed to ${bucket}\n`})
    expect(fileIn(tap, 'Formula/gw.rb')).toBe('class Gw < Formula\nend\n')
    expect(fileIn(bucket, 'bucket/gw.json')).toBe('{"version": "x"}\n')
    expect(execFileSync('git', ['--git-dir', tap, 'log', '--format=%s', 'main'], {encoding: 'utf8'})).toBe(`gw ${version}\nstart\n`)
    const again = spawnSync(process.execPath, [SCRIPT, '--dir', release], {env, encoding: 'utf8'})
    expect(again.stdout).toBe(`Homebrew tap: Formula/gw.rb is already gw ${version}'s\nScoop bucket: bucket/gw.json is already gw ${version}'s\n`)
  })

  it('says which is not updated where its repository is not given, and fails where a push fails', () => {
    const release = mkdtempSync(join(tmpdir(), 'gw-release-'))
    writeFileSync(join(release, 'gw.rb'), 'x\n')
    const none = spawnSync(process.execPath, [SCRIPT, '--dir', release], {env: {PATH: process.env.PATH}, encoding: 'utf8'})
    expect(none).toMatchObject({
      status: 0,
      stdout: 'Homebrew tap: not updated: HOMEBREW_TAP_REPOSITORY is not set (a secret of the release workflow)\nScoop bucket: not updated: SCOOP_BUCKET_REPOSITORY is not set (a secret of the release workflow)\n',
    })
    const gone = spawnSync(process.execPath, [SCRIPT, '--dir', release], {env: {PATH: process.env.PATH, HOMEBREW_TAP_REPOSITORY: join(release, 'no-such-repository')}, encoding: 'utf8'})
    expect(gone.status).toBe(1)
    expect(gone.stderr).toMatch(/^Homebrew tap: git clone failed \(exit 128\): /)
  })
})

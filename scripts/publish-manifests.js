// `node scripts/publish-manifests.js [--dir release]`: the release's Homebrew formula and Scoop
// manifest (scripts/release-files.js made both from SHA256SUMS) committed into the tap and the
// bucket, the release workflow's last step. Each repository and its token come from the
// environment, as the workflow's secrets give them: HOMEBREW_TAP_REPOSITORY (OWNER/NAME on GitHub,
// or any address git can push to) and HOMEBREW_TAP_TOKEN; SCOOP_BUCKET_REPOSITORY and
// SCOOP_BUCKET_TOKEN. One not given is said and left; a push that fails fails the step. The token
// reaches git through its environment (GIT_CONFIG_*), never a command line or a remote's address.
import {spawnSync} from 'node:child_process'
import {copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {parseArgs} from 'node:util'

const root = join(import.meta.dirname, '..')

/** Where each manifest goes: its file in release/, the folder Homebrew or Scoop reads it from, and the variables naming the repository. */
export const PLACES = [
  {name: 'Homebrew tap', file: 'gw.rb', folder: 'Formula', repository: 'HOMEBREW_TAP_REPOSITORY', token: 'HOMEBREW_TAP_TOKEN'},
  {name: 'Scoop bucket', file: 'gw.json', folder: 'bucket', repository: 'SCOOP_BUCKET_REPOSITORY', token: 'SCOOP_BUCKET_TOKEN'},
]

/** The address git clones: OWNER/NAME is a GitHub repository; anything else is used as it is. */
function addressOf(repository) {
  return /^[\w.-]+\/[\w.-]+$/.test(repository) ? `https://github.com/${repository}.git` : repository
}

/**
 * Commits `file` of `dir` into `folder` of the repository and pushes it; returns what it did, in
 * one line. Nothing is committed where the manifest is already that.
 */
export function publish({dir, version, place, env = process.env}) {
  const repository = env[place.repository]
  if (!repository) return `${place.name}: not updated: ${place.repository} is not set (a secret of the release workflow)`
  const token = env[place.token]
  const auth = token ? {GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.https://github.com/.extraheader', GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`} : {}
  const work = mkdtempSync(join(tmpdir(), 'gw-publish-'))
  const git = (...args) => {
    const result = spawnSync('git', args, {cwd: work, encoding: 'utf8', env: {...env, ...auth, GIT_TERMINAL_PROMPT: '0'}})
    if (result.status !== 0) throw new Error(`${place.name}: git ${args[0]} failed (${result.error?.message ?? `exit ${result.status}`}): ${(result.stderr ?? '').trim()}`)
    return result.stdout
  }
  try {
    git('clone', '--quiet', '--depth', '1', addressOf(repository), '.')
    mkdirSync(join(work, place.folder), {recursive: true})
    copyFileSync(join(dir, place.file), join(work, place.folder, place.file))
    git('add', join(place.folder, place.file))
    if (git('status', '--porcelain').trim() === '') return `${place.name}: ${place.folder}/${place.file} is already gw ${version}'s`
    git('-c', 'user.name=github-actions[bot]', '-c', 'user.email=41898282+github-actions[bot]@users.noreply.github.com', 'commit', '--quiet', '-m', `gw ${version}`)
    git('push', '--quiet', 'origin', 'HEAD')
    return `${place.name}: ${place.folder}/${place.file} is gw ${version}'s, pushed to ${repository}`
  } finally {
    rmSync(work, {recursive: true, force: true})
  }
}

if (process.argv[1] === import.meta.filename) {
  const {values} = parseArgs({options: {dir: {type: 'string', default: join(root, 'release')}}})
  const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  try {
    for (const place of PLACES) process.stdout.write(`${publish({dir: resolve(values.dir), version, place})}\n`)
  } catch (error) {
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  }
}

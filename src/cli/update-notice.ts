import {existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {isSea} from 'node:sea'
import {gwItself} from './startup/itself.js'

// gw's update notice, as gh and the Stripe CLI give theirs: a newer release on npm is said on
// stderr, at most once a day, after the command's own output. Looking for one never delays a
// command: a process of its own asks the registry in the background, at most once a day, and
// writes what it found into a small file in gw's data folder, which the next run reads. Only
// where the rule allows (startup/update-rule.ts: a terminal, not CI, GW_NO_UPDATE_NOTIFIER unset).

/** The first word bin/run.js and bin/sea.js take as the background check's, not a command's. */
export const UPDATE_CHECK = '__update-check'
const DAY = 24 * 60 * 60 * 1000
const STATE_FILE = 'update-check.json'
/** npm's own registry, unless npm's variable for it names another (a mirror, a company's registry). */
const NPM_REGISTRY = 'https://registry.npmjs.org/'

/** What the file holds: when a check last started, the newest release it found, when a notice last showed it. */
export interface UpdateState {
  checkedAt?: string
  latest?: string
  notifiedAt?: string
}

export interface Install {
  /** gw's version. */
  version: string
  /** Where it is: the package's folder (npm, a clone), or the one-file executable, links resolved. */
  path: string
  /** A clone of gw's repository. */
  clone: boolean
  /** The repository's address, https://github.com/OWNER/NAME, for the release's page. */
  repository: string
}

export interface NoticeContext {
  install: Install
  env: NodeJS.ProcessEnv
  dataDir: () => string
  now: Date
  err: (text: string) => void
  /** Starts the background check of `registry`, writing into the file at `state`; returns at once. */
  startCheck: (state: string, registry: string) => void
}

/**
 * After a command: the notice a check before this run found, where the release it found is newer
 * than this gw and no notice was shown in the last day; then a check started, where none started in
 * the last day. Whatever goes wrong (a folder that cannot be written) is left unsaid: it is never
 * the command's failure.
 */
export function noticeUpdate(context: NoticeContext): void {
  try {
    const file = join(context.dataDir(), STATE_FILE)
    const state = readState(file)
    const now = context.now.getTime()
    const since = (when: string | undefined) => (when === undefined ? Infinity : now - Date.parse(when))
    const next: UpdateState = {...state}
    if (state.latest && newer(state.latest, context.install.version) && !(since(state.notifiedAt) < DAY)) {
      context.err(noticeText(context.install, state.latest))
      next.notifiedAt = context.now.toISOString()
    }
    const check = !(since(state.checkedAt) < DAY)
    // Claimed before it starts: two gw at once start one check, and an offline machine is not asked every run.
    if (check) next.checkedAt = context.now.toISOString()
    if (next.notifiedAt !== state.notifiedAt || check) writeState(file, next)
    if (check) context.startCheck(file, context.env.npm_config_registry || NPM_REGISTRY)
  } catch {
    // No notice this time.
  }
}

/** The notice: the versions, the command that upgrades gw where a package manager installed it, and the release's page. */
export function noticeText(install: Install, latest: string): string {
  const upgrade = upgradeCommand(install)
  const page = `${install.repository}/releases/tag/v${latest}`
  return [
    `A new release of gw is available: ${install.version} -> ${latest}`,
    upgrade ? `To upgrade, run: ${upgrade}` : `To upgrade, download your platform's archive from ${page}`,
    ...(upgrade ? [page] : []),
    '',
  ].join('\n')
}

/**
 * The command that upgrades gw as it was installed, told by where it is: Homebrew's Cellar,
 * Scoop's apps, winget's packages, a clone, npm's node_modules; undefined for a one-file
 * executable put somewhere by hand.
 */
export function upgradeCommand({path, clone, repository}: Pick<Install, 'path' | 'clone' | 'repository'>): string | undefined {
  const at = path.replaceAll('\\', '/').toLowerCase()
  if (/\/cellar\/gw\//.test(at)) return 'brew upgrade gw'
  if (/\/scoop\/apps\/gw\//.test(at)) return 'scoop update gw'
  if (/\/winget\/packages\//.test(at)) return `winget upgrade ${repository.split('/').at(-2)}.gw`
  if (clone) return 'git pull && npm ci'
  if (/\/node_modules\/gw(\/|$)/.test(at)) return 'npm install --global --allow-scripts=keytar gw@latest'
  return undefined
}

/** Whether release `a` (MAJOR.MINOR.PATCH) is newer than `b`; a version of another shape never is. */
export function newer(a: string, b: string): boolean {
  const parts = (version: string) => /^(\d+)\.(\d+)\.(\d+)$/.exec(version)?.slice(1).map(Number)
  const [x, y] = [parts(a), parts(b)]
  if (!x || !y) return false
  const differs = x.findIndex((part, index) => part !== y[index])
  return differs >= 0 && x[differs]! > y[differs]!
}

/**
 * The background check (`gw __update-check STATE REGISTRY NAME`): asks the registry for the
 * package's latest release and writes it into the file, as it stands now. Says nothing; a failure
 * (offline, a registry that does not answer in 10 s) leaves the file as it was.
 */
export async function checkForUpdate([file, registry, name]: string[]): Promise<void> {
  if (!file || !registry || !name) return
  try {
    const response = await fetch(new URL(encodeURIComponent(name), registry.endsWith('/') ? registry : `${registry}/`), {
      headers: {accept: 'application/vnd.npm.install-v1+json'},
      signal: AbortSignal.timeout(10_000),
    })
    if (!response.ok) return
    const latest = ((await response.json()) as {'dist-tags'?: {latest?: unknown}})['dist-tags']?.latest
    if (typeof latest !== 'string' || !/^\d+\.\d+\.\d+$/.test(latest)) return
    writeState(file, {...readState(file), latest})
  } catch {
    // Asked again a day later.
  }
}

/**
 * This gw, as a notice needs it: where it is installed (the one-file executable, else the package's
 * folder `root`) and how the check starts it again (startup/itself.ts).
 */
export function thisGw(pjson: {name: string; version: string; repository?: string | {url?: string}}, root: string): {install: Install; startCheck: NoticeContext['startCheck']} {
  const sea = isSea()
  const url = typeof pjson.repository === 'string' ? pjson.repository : (pjson.repository?.url ?? '')
  const install = {
    version: pjson.version,
    path: realpathSync(sea ? process.execPath : root),
    clone: !sea && existsSync(join(root, '.git')),
    repository: url.replace(/^git\+/, '').replace(/\.git$/, ''),
  }
  return {install, startCheck: (file, registry) => spawnCheck(file, registry, pjson.name)}
}

/**
 * Starts the background check as a process of its own, which this gw neither waits for nor ends
 * with (no window on Windows). child_process is loaded here only: a command that shows no notice never loads it.
 */
function spawnCheck(file: string, registry: string, name: string): void {
  const gw = gwItself()
  const {spawn} = process.getBuiltinModule('node:child_process')
  const child = spawn(gw.file, [...gw.args, UPDATE_CHECK, file, registry, name], {detached: true, stdio: 'ignore', windowsHide: true, env: {...process.env, GW_NO_UPDATE_NOTIFIER: '1'}})
  child.on('error', () => {})
  child.unref()
}

function readState(file: string): UpdateState {
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as unknown
    if (typeof state !== 'object' || state === null) return {}
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
    const {checkedAt, latest, notifiedAt} = state as Record<string, unknown>
    return Object.fromEntries(Object.entries({checkedAt: text(checkedAt), latest: text(latest), notifiedAt: text(notifiedAt)}).filter(([, value]) => value !== undefined))
  } catch {
    return {}
  }
}

/** Written whole or not at all (a file beside it, renamed over it), readable by its owner alone. */
function writeState(file: string, state: UpdateState): void {
  const temporary = `${file}.${process.pid}.tmp`
  try {
    mkdirSync(join(file, '..'), {recursive: true, mode: 0o700})
    writeFileSync(temporary, `${JSON.stringify(state)}\n`, {mode: 0o600, flag: 'wx'})
    renameSync(temporary, file)
  } finally {
    rmSync(temporary, {force: true})
  }
}

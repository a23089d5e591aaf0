import {spawnSync} from 'node:child_process'
import {randomUUID} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach} from 'vitest'
import {runToEndSync} from '../spawner.js'
import {GW, type Sandbox, sharedSandbox} from './helpers.js'
import {RUN_BOUND_MS, until} from '../until.js'

/**
 * Whether a Secret Service can be used here (an unlocked keyring on the session bus), and the
 * reason when it cannot. With CI=true the keychain tests run regardless, and fail saying why.
 */
export function secretService(): {reason?: string; env: NodeJS.ProcessEnv} {
  const env = {DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS}
  if (!env.DBUS_SESSION_BUS_ADDRESS) return {reason: 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset); run the tests as .ci/run does, in dbus-run-session with gnome-keyring unlocked', env}
  const probe = ['service', 'gw-test-probe', 'account', 'probe']
  const stored = spawnSync('secret-tool', ['store', '--label=gw test probe', ...probe], {input: 'probe', timeout: RUN_BOUND_MS, encoding: 'utf8'})
  if (stored.error) return {reason: `secret-tool cannot run (${stored.error.message}); install libsecret-tools`, env}
  if (stored.status !== 0) return {reason: `the Secret Service refused a test secret: ${stored.stderr.trim() || `secret-tool exited ${stored.status}`}`, env}
  spawnSync('secret-tool', ['clear', ...probe], {timeout: RUN_BOUND_MS})
  return {env}
}

/** What the keychain holds for gw's profile NAME, read with libsecret's own tool rather than gw. */
export function keychainSecret(account: string): string | undefined {
  const result = spawnSync('secret-tool', ['lookup', 'service', 'gw', 'account', account], {timeout: RUN_BOUND_MS, encoding: 'utf8'})
  return result.status === 0 && result.stdout !== '' ? result.stdout : undefined
}

/** Every file under dir, with its text: a token must be in none of them. */
export function filesUnder(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const entry of readdirSync(dir, {withFileTypes: true, recursive: true})) {
    if (entry.isFile()) files[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name), 'utf8')
  }
  return files
}

export interface Terminal {
  /** Waits until the screen shows text; returns the screen. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>
  /** Types a line and presses Enter. */
  type(line: string): void
  /** Presses keys by tmux's names: `Down`, `C-u`, `Enter`. */
  press(...keys: string[]): void
  /** Answers questions in order: waits for each question's text, then types the answer. */
  answer(questions: [question: string, answer: string][]): Promise<void>
  /** The screen's text; with `escapes`, its colours as the terminal's escape sequences (tmux capture-pane -e). */
  screen(escapes?: boolean): string
  /** The pane's terminal device, as `stty -a < TTY` reads its modes. */
  tty(): string
  close(): void
}

/** Resolves with the screen once `shows` holds for it; failing, says what it waited for and what the screen showed then. */
export const untilScreen = (screen: () => string, shows: (shown: string) => boolean, what: string, timeoutMs = RUN_BOUND_MS): Promise<string> =>
  until(() => `the terminal to show ${what}; it shows:\n${screen()}`, () => {
    const shown = screen()
    return shows(shown) && shown
  }, timeoutMs, 100)

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`

/**
 * Runs the built gw in a real pseudo-terminal (a detached tmux session of its own), so prompts
 * are answered by typing, as a person would. The screen ends with `[exit N]` once gw is done.
 */
export function terminal(args: string[], env: NodeJS.ProcessEnv, {width = 200, height = 50, program = [process.execPath, GW]} = {}): Terminal {
  const socket = `gw-test-${randomUUID().slice(0, 8)}`
  // Started by the spawner (test/spawner.ts): a test polls a screen with dozens of these.
  const tmux = (...tmuxArgs: string[]) => {
    const ended = runToEndSync({file: 'tmux', args: ['-L', socket, '-f', '/dev/null', ...tmuxArgs], env: process.env, timeoutMs: RUN_BOUND_MS, killSignal: 'SIGTERM'})
    return {status: ended.code, stdout: ended.stdout.toString(), stderr: ended.stderr.toString()}
  }
  // No update notice, nor its check of the registry, but where a test asks for them (GW_NO_UPDATE_NOTIFIER: undefined).
  const vars = Object.entries({PATH: process.env.PATH, TERM: 'xterm', NODE_OPTIONS: '', GW_NO_UPDATE_NOTIFIER: '1', ...env}).filter(([, value]) => value !== undefined)
  const command = `env -i ${vars.map(([key, value]) => quote(`${key}=${value}`)).join(' ')} ${[...program, ...args].map(quote).join(' ')}; echo "[exit $?]"; sleep 600`
  const started = tmux('new-session', '-d', '-x', String(width), '-y', String(height), '-s', 'gw', command)
  if (started.status !== 0) throw new Error(`tmux could not start: ${started.stderr}`)
  const screen = (escapes = false) => tmux('capture-pane', '-p', '-J', ...(escapes ? ['-e'] : []), '-S', '-100', '-t', 'gw').stdout
  return {
    screen,
    tty: () => tmux('display-message', '-p', '-t', 'gw', '#{pane_tty}').stdout.trim(),
    waitFor: (text, timeoutMs = RUN_BOUND_MS) => untilScreen(screen, (shown) => (typeof text === 'string' ? shown.includes(text) : text.test(shown)), String(text), timeoutMs),
    type(line) {
      tmux('send-keys', '-t', 'gw', '-l', line)
      tmux('send-keys', '-t', 'gw', 'Enter')
    },
    press: (...keys) => void tmux('send-keys', '-t', 'gw', ...keys),
    async answer(questions) {
      for (const [question, answer] of questions) {
        await this.waitFor(question)
        this.type(answer)
      }
    },
    close: () => void tmux('kill-server'),
  }
}

/**
 * Terminal tests against two shared local gateways (sharedSandbox), one as the live gateway
 * answers (`--mode live`, its home a live profile's), and every terminal opened with `run` closed
 * after each test.
 */
export function terminalGateways(sandboxArgs: string[] = []): {gateways: () => {sandbox: Sandbox; live: Sandbox}; run: (args: string[], env: NodeJS.ProcessEnv) => Terminal} {
  let sandbox: Sandbox | undefined
  let live: Sandbox | undefined
  const open: Terminal[] = []
  sharedSandbox((started) => void (sandbox = started), sandboxArgs)
  sharedSandbox((started) => void (live = started), ['--mode', 'live'])
  afterEach(() => {
    for (const t of open.splice(0)) t.close()
  })
  return {
    gateways: () => ({sandbox: sandbox!, live: live!}),
    run(args, env) {
      const t = terminal(args, env)
      open.push(t)
      return t
    },
  }
}

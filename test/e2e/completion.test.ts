import {spawnSync} from 'node:child_process'
import {randomUUID} from 'node:crypto'
import {chmodSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {GW, isolatedHome, runGw, runProgram} from './helpers.js'
import {RUN_BOUND_MS} from '../until.js'
import {untilScreen} from './auth-helpers.js'

// A real interactive bash in a tmux pane: the completion is sourced as the README says, and Tab is pressed.
const home = isolatedHome()
const bin = join(home.HOME!, 'bin')
const socket = `gw-completion-${randomUUID().slice(0, 8)}`
const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], {encoding: 'utf8', timeout: RUN_BOUND_MS})
const screen = () => tmux('capture-pane', '-p', '-J', '-t', 'gw').stdout

const waitFor = (test: (shown: string) => boolean, what: string): Promise<string> => untilScreen(screen, test, what)

beforeAll(() => {
  mkdirSync(bin, {recursive: true})
  writeFileSync(join(bin, 'gw'), `#!/bin/sh\nexec '${process.execPath}' '${GW}' "$@"\n`)
  chmodSync(join(bin, 'gw'), 0o755)
  const env = Object.entries({...home, PATH: `${bin}:${process.env.PATH}`, TERM: 'xterm', PS1: '$ ', NODE_OPTIONS: '', GW_NO_UPDATE_NOTIFIER: '1'}).map(([key, value]) => `${key}=${value}`)
  const started = tmux('new-session', '-d', '-x', '120', '-y', '30', '-s', 'gw', 'env', '-i', ...env, 'bash', '--norc', '--noprofile')
  if (started.status !== 0) throw new Error(`tmux could not start: ${started.stderr}`)
})
afterAll(() => void tmux('kill-server'))

describe('gw completion bash, sourced into an interactive bash', () => {
  it('completes gw pur to purchase, and lists refund subcommands after gw refund', async () => {
    tmux('send-keys', '-t', 'gw', '-l', 'source <(gw completion bash) && echo sourced')
    tmux('send-keys', '-t', 'gw', 'Enter')
    await waitFor((shown) => /^sourced$/m.test(shown), 'sourced')
    tmux('send-keys', '-t', 'gw', '-l', 'gw pur')
    tmux('send-keys', '-t', 'gw', 'Tab')
    await waitFor((shown) => shown.includes('$ gw purchase '), '"gw purchase "')
    tmux('send-keys', '-t', 'gw', 'C-u')
    tmux('send-keys', '-t', 'gw', '-l', 'gw refund ')
    tmux('send-keys', '-t', 'gw', 'Tab', 'Tab')
    const shown = await waitFor((text) => /^create +get +list +void\s*$/m.test(text), 'create, get, list and void listed')
    expect(shown).toMatch(/\$ gw refund \n/)
  })
})

describe('the generated scripts', () => {
  // The same function bash calls on Tab, driven with COMP_LINE as bash sets it.
  const complete = async (line: string) => {
    const script = `source <(gw completion bash)\nCOMP_LINE='${line}'; COMP_POINT=\${#COMP_LINE}; _gw_complete; printf '%s\\n' "\${COMPREPLY[@]}"`
    const result = await runProgram('bash', ['--norc', '--noprofile', '-c', script], {env: {...home, PATH: `${bin}:${process.env.PATH}`}})
    expect(result.stderr).toBe('')
    return result.stdout.split('\n').filter(Boolean)
  }

  it.each([
    ['gw subscription create --frequency ', ['Daily', 'Weekly', 'Fortnightly', 'Monthly', 'Quarterly', 'Bi-Annually', 'Annually']],
    ['gw sandbox trigger charge:s', ['successful']],
    ['gw sandbox trigger ', ['charge:pending', 'charge:successful', 'charge:retry', 'charge:failed', 'card:expiring', 'card:expired', 'payment_plan_payment:completed', 'payment_plan_payment:declined', 'payment_plan_payment:error']],
    ['gw --json purchase g', ['get']],
    ['gw purchase create --am', ['--amount']],
    ['gw completion ', ['bash', 'zsh', 'fish', 'powershell']],
    ['gw help exit', ['exit-codes']],
  ])('%s', async (line, expected) => {
    expect(await complete(line)).toEqual(expected)
  })

  it('completes saved profile names after --profile', async () => {
    const profile = {environment: 'sandbox', baseUrl: 'http://127.0.0.1:9', username: 'SHOP'}
    mkdirSync(join(home.XDG_CONFIG_HOME!, 'gw'), {recursive: true})
    writeFileSync(join(home.XDG_CONFIG_HOME!, 'gw', 'config.json'), JSON.stringify({activeProfile: 'shop-test', profiles: {'shop-test': profile, 'shop-live': {...profile, environment: 'live'}}}))
    expect(await complete('gw --profile ')).toEqual(['shop-test', 'shop-live'])
    expect(await complete('gw status --profile shop-l')).toEqual(['shop-live'])
  })

  it.each(['bash', 'zsh', 'fish'])('gw completion %s says how to install it and exits 0', async (shell) => {
    const result = await runGw(['completion', shell], {env: home})
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout.split('\n').find((line) => line.startsWith('# gw completion'))).toBe(`# gw completion for ${shell}. Load it in this shell:  ${shell === 'fish' ? 'gw completion fish | source' : `source <(gw completion ${shell})`}`)
  })

  it('refuses a shell it does not know with exit 2', async () => {
    const result = await runGw(['completion', 'tcsh'], {env: home})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Expected tcsh to be one of: bash, zsh, fish, powershell')
  })
})

const installed = (shell: string) => spawnSync(shell, ['--version']).status === 0

describe('gw completion powershell', () => {
  it('prints a native argument completer for gw, saying how to load it, and exits 0', async () => {
    const result = await runGw(['completion', 'powershell'], {env: home})
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    const lines = result.stdout.split('\n')
    expect(lines[0]).toBe('# gw completion for PowerShell. Load it in this session:  gw completion powershell | Out-String | Invoke-Expression')
    expect(lines[2]).toBe("Register-ArgumentCompleter -Native -CommandName 'gw' -ScriptBlock {")
    expect(result.stdout).toContain("  $values['subscription create|--frequency'] = @('Daily', 'Weekly', 'Fortnightly', 'Monthly', 'Quarterly', 'Bi-Annually', 'Annually')\n")
  })

  // PowerShell is not in Debian; Windows' CI runner and a machine with pwsh run this.
  describe.skipIf(!installed('pwsh'))('in pwsh (skipped where pwsh is not installed)', () => {
    const complete = async (line: string) => {
      const script = `gw completion powershell | Out-String | Invoke-Expression; (TabExpansion2 -inputScript '${line}' -cursorColumn ${line.length}).CompletionMatches | ForEach-Object { $_.CompletionText }`
      const result = await runProgram('pwsh', ['-NoProfile', '-NonInteractive', '-Command', script], {env: {...home, PATH: `${bin}:${process.env.PATH}`}})
      expect(result.stderr).toBe('')
      return result.stdout.split(/\r?\n/).filter(Boolean)
    }
    it.each([
      ['gw pur', ['purchase']],
      ['gw subscription create --frequency ', ['Daily', 'Weekly', 'Fortnightly', 'Monthly', 'Quarterly', 'Bi-Annually', 'Annually']],
      ['gw sandbox trigger charge:s', ['charge:successful']],
      ['gw --json purchase g', ['get']],
      ['gw purchase create --am', ['--amount']],
      ['gw completion ', ['bash', 'zsh', 'fish', 'powershell']],
    ])('%s', async (line, expected) => {
      expect(await complete(line)).toEqual(expected)
    })
  })
})

describe.skipIf(!installed('fish'))('gw completion fish, in fish', () => {
  it('completes commands with their summaries, flag values and event names', async () => {
    const script = `gw completion fish | source; complete -C 'gw pur'; complete -C 'gw refund '; complete -C 'gw subscription create --frequency Bi'; complete -C 'gw sandbox trigger card:'`
    const result = await runProgram('fish', ['--no-config', '-c', script], {env: {...home, PATH: `${bin}:${process.env.PATH}`}})
    expect(result.stderr).toBe('')
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([
      'purchase\tcharge a card and look purchases up',
      'create\tRefund a purchase, in full or in part; or a batch of refunds from a file',
      'get\tLook refunds up by id or reference',
      'list\tList refunds, newest first; or the refunds of a purchase',
      'void\tVoid refunds made by mistake, before they settle',
      'Bi-Annually',
      'card:expired',
      'card:expiring',
    ])
  })
})

describe.skipIf(!installed('zsh'))('gw completion zsh', () => {
  it('is a script zsh parses', async () => {
    const result = await runProgram('zsh', ['-f', '-c', 'autoload -U compinit && compinit -u -d "$HOME/.zcompdump" && source <(gw completion zsh) && whence -w _gw_zsh'], {env: {...home, PATH: `${bin}:${process.env.PATH}`}})
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe('_gw_zsh: function\n')
  })
})

import {spawnSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {open} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {terminal, type Terminal} from './auth-helpers.js'
import {CARDS, GW, ref, type Sandbox, sharedSandbox} from './helpers.js'

// A card number typed after Enter but before the masked prompt draws (about a second,
// while gw loads) was echoed in clear, and stayed in the scrollback. gw now turns echo off as it
// starts and drops what is typed before the prompt. To type "before the prompt draws" for
// certain, gw is held at the read of its bundle (the slow part of its start) by a preload that
// first reads a FIFO: the keys are sent while it waits there, then it is let go.
let sandbox: Sandbox
const opened: Terminal[] = []
sharedSandbox((started) => void (sandbox = started))
afterEach(() => {
  for (const t of opened.splice(0)) t.close()
})

const dir = mkdtempSync(join(tmpdir(), 'gw-typed-ahead-'))
// A file of the tree's own: gw names its code cache after its node flags, this path among them,
// and one in a folder of this run's left another cache in dist/ each run.
const preload = join(import.meta.dirname, '..', 'fixtures', 'gate-at-bundle.cjs')

/** gw in a terminal, waiting at the read of its bundle until the returned `letGo` is called. */
async function heldAtStart(args: string[]): Promise<{t: Terminal; letGo: () => Promise<void>}> {
  const gate = join(dir, `gate-${Math.random().toString(36).slice(2)}`)
  expect(spawnSync('mkfifo', [gate]).status).toBe(0)
  const t = terminal(args, sandbox.env({GW_TEST_GATE: gate}), {program: [process.execPath, '--require', preload, GW]})
  opened.push(t)
  // Opening the FIFO to write waits for gw to open it to read: gw has started and is held there.
  const writer = await Promise.race([open(gate, 'w'), t.waitFor(/\[exit \d+\]/).then((screen) => Promise.reject(new Error(`gw ended before its bundle was read:\n${screen}`)))])
  return {t, letGo: () => writer.close()}
}

/** The terminal's local modes, as stty prints them: `echo` or `-echo`, `icanon` or `-icanon`. */
function modes(t: Terminal): string {
  const stty = spawnSync('sh', ['-c', 'stty -a < "$1"', 'sh', t.tty()], {encoding: 'utf8'})
  expect(stty.status, stty.stderr).toBe(0)
  return stty.stdout
}

const PURCHASE = ['purchase', 'create', '--amount', '1000', '--card-holder', 'Jane Citizen', '--card-expiry', '12/2030']

describe('what is typed before the masked prompt draws', () => {
  it('is never shown: echo is off from the start, the keys are dropped, and the card typed at the prompt is charged', async () => {
    const reference = ref('ahead')
    const {t, letGo} = await heldAtStart([...PURCHASE, '--reference', reference, '--json'])
    expect(modes(t)).toMatch(/(^|\s)-echo(\s|$)/)
    expect(t.screen()).not.toContain('Card number')
    t.press('-l', CARDS.mastercard)
    await letGo()
    await t.answer([
      ['Card number', CARDS.visa],
      ['CVV', '123'],
    ])
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 0]')
    expect(screen).not.toContain(CARDS.mastercard.slice(0, 6))
    expect(screen).toContain('✔ Card number ****************\n')
    expect(modes(t)).toMatch(/(^|\s)echo(\s|$)/)
    expect((await sandbox.gw(['purchase', 'get', reference, '--json'])).json).toMatchObject({reference, card_number: '424242XXXXXX4242', successful: true})
  })

  it('Ctrl-C before the prompt stops gw (exit 130) and leaves the terminal echoing', async () => {
    const {t, letGo} = await heldAtStart([...PURCHASE, '--reference', ref('ahead')])
    t.press('C-c')
    await letGo()
    const screen = await t.waitFor(/\[exit \d+\]/)
    expect(screen).toContain('[exit 130]')
    expect(screen).not.toContain('Card number')
    expect(modes(t)).toMatch(/(^|\s)echo(\s|$)/)
    expect(modes(t)).toMatch(/(^|\s)icanon(\s|$)/)
  })

  it('a command that will ask no secret leaves echo on (the card given by its flags)', async () => {
    const {t, letGo} = await heldAtStart(['purchase', 'create', '--amount', '1000', '--reference', ref('ahead'), '--card-token', 'tok_none'])
    expect(modes(t)).toMatch(/(^|\s)echo(\s|$)/)
    await letGo()
    await t.waitFor(/\[exit \d+\]/)
  })
})

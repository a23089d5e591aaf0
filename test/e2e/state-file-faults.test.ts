import {type ChildProcess, spawn, spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, expect, it} from 'vitest'
import {ANSWERS, baseEnv, cardArgs, CARDS, describeInBothDialects, DIALECT, GW, isolatedHome, ref, runGw, type Sandbox, startSandbox} from './helpers.js'

// The local gateway's state file when a commit's sync fails (EIO, injected from outside with
// strace, on the write-ahead log beside the file), the gateway then killed with SIGKILL and started
// again on the same file: what a client was told of its purchase must hold against what the
// restarted gateway has. SQLite reads a commit whose sync failed as made once the file is opened
// again (state-database.ts): before, the gateway answered "nothing was done" and a restart had it.
const strace = spawnSync('sh', ['-c', 'command -v strace']).status === 0

const AUTHORIZATION = `Basic ${Buffer.from('TEST:TEST').toString('base64')}`
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Traced {
  url: string
  state: string
  home: NodeJS.ProcessEnv
  strace: ChildProcess
}

/** `gw sandbox start --state` under strace, the fsyncs of its log failed as `when` says (strace's FIRST[..LAST][+]); undefined when it did not start. */
async function tracedGateway(when: string): Promise<Traced | undefined> {
  const home = isolatedHome()
  const state = join(mkdtempSync(join(tmpdir(), 'gw-state-faults-')), 'state.sqlite')
  const gateway = [process.execPath, GW, 'sandbox', 'start', '--port', '0', '--dialect', DIALECT, '--no-request-log', '--state', state]
  const inject = ['-f', '-qq', '-o', '/dev/null', '-P', `${state}-wal`, '-e', 'trace=fsync,fdatasync', '-e', `inject=fsync,fdatasync:error=EIO:when=${when}`]
  const child = spawn('strace', [...inject, ...gateway], {env: baseEnv(home), stdio: ['ignore', 'pipe', 'pipe']})
  cleanups.push(() => killTracee(child))
  const url = await new Promise<string | undefined>((resolve) => {
    let stdout = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const found = /https?:\/\/[^\s]+/.exec(stdout)
      if (found) resolve(found[0])
    })
    child.on('exit', () => resolve(undefined))
  })
  return url === undefined ? undefined : {url, state, home, strace: child}
}

/** Kills the gateway strace runs with SIGKILL (strace itself would only let it go), and waits for both to end. */
async function killTracee(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const ended = new Promise((resolve) => child.once('exit', resolve))
  const tracee = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0])
  process.kill(tracee, 'SIGKILL')
  await ended
}

async function purchase(url: string, reference: string): Promise<{status: number; body: unknown}> {
  const body = {card_holder: 'Jane Citizen', card_number: CARDS.visa, card_expiry: '12/2030', cvv: '123', amount: 1000, reference}
  const answer = await fetch(`${url}/v1.0/purchases`, {method: 'POST', headers: {'content-type': 'application/json', authorization: AUTHORIZATION}, body: JSON.stringify(body)})
  return {status: answer.status, body: await answer.json()}
}

async function lookUp(url: string, reference: string): Promise<{status: number; body: unknown}> {
  const answer = await fetch(`${url}/v1.0/purchases/${reference}`, {headers: {authorization: AUTHORIZATION}})
  return {status: answer.status, body: await answer.json()}
}

/**
 * A gateway whose first purchase's commit failed: the first N at which the gateway starts (the
 * syncs before are its own, as it starts) and a purchase is answered 500. Its one purchase, so no
 * later commit overwrites what the failed one left in the log.
 */
async function failedCommit(when: (nth: number) => string): Promise<Traced & {reference: string; answer: {status: number; body: unknown}}> {
  for (let nth = 1; nth <= 10; nth++) {
    const gateway = await tracedGateway(when(nth))
    if (!gateway) continue
    const reference = ref('unsynced')
    const answer = await purchase(gateway.url, reference)
    if (answer.status === 500) return {...gateway, reference, answer}
    await killTracee(gateway.strace)
  }
  throw new Error('no purchase was answered 500 with the syncs of its log failing from the 1st to the 10th')
}

/** The same state file, after the gateway on it was killed with SIGKILL. */
async function restarted(gateway: Traced): Promise<Sandbox> {
  await killTracee(gateway.strace)
  const again = await startSandbox(['--no-request-log', '--state', gateway.state], gateway.home)
  cleanups.push(() => again.stop())
  return again
}

const envelope = (errors: string[]) => ({successful: false, response: null, errors, test: true})
const AFTER_A_RESTART = 'This gateway answers nothing more until it is restarted; then look up what is in doubt by its reference, and send it again only if it is not found.'

describeInBothDialects('a purchase whose state file commit fails (EIO on its sync), then kill -9 and a restart on the same file', () => {
  it.skipIf(!strace)('one failed sync: answered "nothing was done", and the restarted gateway has no such purchase', {timeout: 120_000}, async () => {
    const gateway = await failedCommit((nth) => String(nth))
    expect(gateway.answer).toStrictEqual({
      status: 500,
      body: envelope(['Internal sandbox error: the change could not be saved to the state file (disk I/O error); nothing was done']),
    })
    expect(await lookUp(gateway.url, gateway.reference)).toMatchObject({status: 404, body: {errors: [ANSWERS.purchaseNotFound]}})

    const again = await restarted(gateway)
    expect(await lookUp(again.url, gateway.reference)).toMatchObject({status: 404, body: {errors: [ANSWERS.purchaseNotFound]}})
    const listed = await again.gw(['purchase', 'list', '--reference', gateway.reference])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.records).toEqual([])
    // The gateway writes on: a purchase made after the restart is kept.
    expect((await purchase(again.url, gateway.reference)).status).toBe(200)
  })

  it.skipIf(!strace)('every sync failing from then on: answered "it may have been made", then nothing until a restart; gw told to check, not to resend; the restarted gateway answers the look-up', {timeout: 120_000}, async () => {
    const gateway = await failedCommit((nth) => `${nth}+`)
    expect(gateway.answer).toStrictEqual({
      status: 500,
      body: envelope([`Internal sandbox error: the change could not be saved to the state file (disk I/O error), and the file may hold it all the same: it may have been made. ${AFTER_A_RESTART}`]),
    })
    // Reads too: what it holds in memory may not be what a restart reads.
    expect(await lookUp(gateway.url, gateway.reference)).toStrictEqual({
      status: 500,
      body: envelope([`Internal sandbox error: an earlier change could not be saved to the state file (disk I/O error), and the file may hold it all the same: nothing of this request was done. ${AFTER_A_RESTART}`]),
    })
    // A purchase gw sends now is in doubt too: it is told to check, never that nothing was made.
    const other = ref('unsynced')
    const sent = await runGw(['purchase', 'create', '--amount', '1000', '--reference', other, ...cardArgs()], {env: {...gateway.home, GW_BASE_URL: gateway.url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'}})
    expect(sent.code, sent.stderr).toBe(8)
    expect(sent.stderr).toContain(`Hint: Do not resend it until you have checked what the gateway has: gw purchase get ${other}`)

    const again = await restarted(gateway)
    const found = await lookUp(again.url, gateway.reference)
    // Either is true to "it may have been made"; what the restarted gateway has is the answer.
    expect([200, 404]).toContain(found.status)
    if (found.status === 200) expect(found.body).toMatchObject({successful: true, response: {reference: gateway.reference, amount: 1000}})
  })

  it.runIf(!strace)('skipped: strace injects the faults (Debian package strace; CI installs it)', () => {})
})

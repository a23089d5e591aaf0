import {spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {apiRequestsSince, baseEnv, GW, type GwResult, requestLogCursor, runProgram, type Sandbox, sharedSandbox} from './helpers.js'

// Bytes that are not UTF-8, on the command line or in a file, are refused naming
// the flag, or the file's line and field, exit 2 and nothing sent: never sent as U+FFFD (Node's
// reading of them, lib/utf8.ts). And gw api --data @FILE is bounded: a 100 MB file is refused
// before it is read.

let sandbox: Sandbox
sharedSandbox((started) => {
  sandbox = started
})

const dir = mkdtempSync(join(tmpdir(), 'gw-not-utf8-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const NOT_UTF8 = 'holds \uFFFD (U+FFFD), the mark of bytes that are not UTF-8'
const CARD = '--card-holder J --card-number 4242424242424242 --card-expiry 12/2030 --cvv 123'

/** gw run by bash, so that argv can hold bytes no JavaScript string can (`$'\xff'`). */
async function gwInBash(words: string): Promise<GwResult> {
  return runProgram('bash', ['-c', `exec "${process.execPath}" "${GW}" ${words}`], {env: sandbox.env(), cwd: dir})
}

/** What reached the gateway's API while `run` ran. */
async function requestsDuring(run: () => Promise<unknown>): Promise<unknown[]> {
  const cursor = await requestLogCursor(sandbox)
  await run()
  return apiRequestsSince(sandbox, cursor)
}

describe('a byte that is not UTF-8 on the command line', () => {
  it('in --reference, as a separate word or glued with =: refused naming the flag, exit 2, nothing sent', async () => {
    for (const flag of [`--reference $'order-\\xff1'`, `--reference=$'order-\\xc3'`]) {
      let result: GwResult | undefined
      expect(await requestsDuring(async () => (result = await gwInBash(`purchase create --amount 1000 ${flag} ${CARD}`)))).toEqual([])
      expect(result!.code, result!.stderr).toBe(2)
      expect(result!.stdout).toBe('')
      expect(result!.stderr).toBe(`Error: --reference ${NOT_UTF8}, and nothing was sent\nHint: Type it again with the terminal set to UTF-8 (LANG or LC_ALL ending in .UTF-8).\n`)
    }
  })

  it('in an argument: refused naming it', async () => {
    const result = await gwInBash(`purchase get $'order-\\xff'`)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`Error: ID ${NOT_UTF8}, and nothing was sent`)
  })

  it('the same text in UTF-8 is taken', async () => {
    // In base 36: a time of 13 digits passed the card number check one time in ten, and was printed masked.
    const stamp = Date.now().toString(36)
    const result = await gwInBash(`purchase create --amount 1000 --reference $'caf\\xc3\\xa9-${stamp}' ${CARD} --json`)
    expect(result.code, result.stderr).toBe(0)
    expect((JSON.parse(result.stdout) as {reference: string}).reference).toBe(`café-${stamp}`)
  })
})

describe('a byte that is not UTF-8 in a batch file', () => {
  it('a CSV row: refused naming its line and field, and nothing of the batch sent', async () => {
    const file = join(dir, 'purchases.csv')
    writeFileSync(file, Buffer.concat([Buffer.from('card_token,amount,reference\nabc,100,fine-1\nabc,100,bad-'), Buffer.from([0xff]), Buffer.from('2\n')]))
    let result: GwResult | undefined
    expect(await requestsDuring(async () => (result = await gwInBash(`purchase create --input purchases.csv`)))).toEqual([])
    expect(result!.code).toBe(2)
    expect(result!.stderr).toContain(`purchases.csv line 3: reference ${NOT_UTF8}: save the file as UTF-8\n`)
    expect(result!.stderr).toContain('Error: 1 of 2 rows is invalid (line 3): nothing was sent')
  })

  it('an NDJSON line, and a file of ids: the line named', async () => {
    writeFileSync(join(dir, 'refunds.ndjson'), Buffer.concat([Buffer.from('{"transaction_id":"071-P-1","reference":"r-\xe9"}\n{"transaction_id":"071-P-'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]))
    const rows = await gwInBash('refund create --input refunds.ndjson')
    expect(rows.code).toBe(2)
    expect(rows.stderr).toContain(`refunds.ndjson line 2: transaction_id ${NOT_UTF8}: save the file as UTF-8\n`)
    writeFileSync(join(dir, 'ids.txt'), Buffer.concat([Buffer.from('order-1\norder-'), Buffer.from([0xfe]), Buffer.from('\n')]))
    const ids = await gwInBash('purchase get --input ids.txt')
    expect(ids.code).toBe(2)
    expect(ids.stderr).toBe('Error: --input ids.txt line 2 holds bytes that are not UTF-8, and nothing was sent\nHint: Save the file as UTF-8 and run it again.\n')
  })
})

describe('a byte that is not UTF-8 in a fixtures file', () => {
  it('gw sandbox seed: refused naming its line, nothing made', async () => {
    writeFileSync(join(dir, 'fixtures.json'), Buffer.concat([Buffer.from('{"steps": [\n{"name": "gold", "create": "plan", "fields": {"name": "G'), Buffer.from([0xff]), Buffer.from('ld", "amount": 2500, "reference": "gold-x", "description": "x"}}\n]}\n')]))
    let result: GwResult | undefined
    expect(await requestsDuring(async () => (result = await gwInBash('sandbox seed fixtures.json')))).toEqual([])
    expect(result!.code).toBe(2)
    expect(result!.stderr).toBe('Error: fixtures.json line 2 holds bytes that are not UTF-8, and nothing was sent\nHint: Save the file as UTF-8 and run it again.\n')
  })
})

describe('gw api --data', () => {
  it('a body file that is not UTF-8: refused naming the line', async () => {
    writeFileSync(join(dir, 'plan.json'), Buffer.concat([Buffer.from('{\n"name": "'), Buffer.from([0xff]), Buffer.from('"}\n')]))
    const result = await gwInBash('api POST /v1.0/plans --data @plan.json')
    expect(result.code).toBe(2)
    expect(result.stderr).toBe('Error: --data @plan.json line 2 holds bytes that are not UTF-8, and nothing was sent\nHint: Save the file as UTF-8 and run it again.\n')
  })

  it('a 100 MB body file: refused before it is read, naming --data and the limit, nothing sent', async () => {
    const file = join(dir, 'big.json')
    writeFileSync(file, '')
    truncateSync(file, 100 * 1000 * 1000)
    let result: GwResult | undefined
    expect(await requestsDuring(async () => (result = await gwInBash('api POST /v1.0/plans --data @big.json')))).toEqual([])
    expect(result!.code).toBe(2)
    expect(result!.stderr).toBe('Error: --data @big.json: big.json is 95.4 MiB, and a request body is at most 1 MiB: nothing was sent\nHint: No gateway endpoint takes a body that large: give the JSON body of one request.\n')
  })

  it.skipIf(!existsSync('/usr/bin/time'))('the 100 MB file refused in under 100 MiB of memory at gw\'s peak (it was 460 MB read whole)', () => {
    const file = join(dir, 'big-peak.json')
    writeFileSync(file, '')
    truncateSync(file, 100 * 1000 * 1000)
    const measured = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, GW, 'api', 'POST', '/v1.0/plans', '--data', `@${file}`], {env: baseEnv(sandbox.env()), stdio: ['ignore', 'ignore', 'pipe']})
    expect(measured.status).toBe(2)
    const peakKiB = Number(measured.stderr.toString().trim().split('\n').at(-1))
    expect(peakKiB).toBeGreaterThan(0)
    expect(peakKiB / 1024).toBeLessThan(100)
  })

  it.runIf(!existsSync('/usr/bin/time'))('skipped: /usr/bin/time measures the peak memory (Debian package time; CI installs it)', () => {})

  it('a body piped in past the limit: refused once it passes it', async () => {
    const result = await runProgram('bash', ['-c', `head -c 3000000 /dev/zero | "${process.execPath}" "${GW}" api POST /v1.0/plans --data -`], {env: sandbox.env(), cwd: dir})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: --data -: it holds over 1 MiB, and a request body is at most 1 MiB: nothing was sent')
  })
})

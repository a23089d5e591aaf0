import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {nodeSqlite} from '../../src/lib/locked-database.js'
import {stateIn} from '../sandbox/state-file.js'
import {cardArgs, isolatedHome, ref, runGw, startSandbox} from './helpers.js'

describe('gw sandbox start --detach, status, stop', () => {
  it('runs in the background, registers the local profile, and stops', async () => {
    const home = isolatedHome()
    const started = await runGw(['sandbox', 'start', '--detach', '--port', '0'], {env: home})
    try {
      expect(started.code).toBe(0)
      const url = started.stdout.trim()
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(started.stderr).toContain(`Local gateway running in the background at ${url}`)
      expect(started.stderr).toContain('Profile "local" is now active')
      // Without --state, what it holds is lost at gw sandbox stop: said at start, and at stop.
      expect(started.stderr).toContain('Its records are kept in memory only and are gone when it stops: --state FILE keeps them.\n')

      const status = await runGw(['sandbox', 'status', '--json'], {env: home})
      expect(status.code).toBe(0)
      expect(status.json).toMatchObject({url, mode: 'sandbox', stateFile: null})

      // The quick start needs no login: the local profile is active.
      const purchase = await runGw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(), '--json'], {env: home})
      expect(purchase.code).toBe(0)
      expect(purchase.json).toMatchObject({message: 'Approved'})

      const again = await runGw(['sandbox', 'start', '--detach', '--port', '0'], {env: home})
      expect(again.code).toBe(0)
      expect(again.stdout.trim()).toBe(url)
      expect(again.stderr).toContain('already running')
    } finally {
      const stopped = await runGw(['sandbox', 'stop'], {env: home})
      expect(stopped.code).toBe(0)
      expect(stopped.stderr).toMatch(/^Stopped the local gateway at http:\/\/127\.0\.0\.1:\d+; its records are gone with it \(it had no --state file\)\.\n$/)
    }
    const after = await runGw(['sandbox', 'status'], {env: home})
    expect(after.code).toBe(1)
    expect(after.stderr).toContain('Error: No local gateway is running')
    expect(after.stderr).toContain('Hint: Start it with: gw sandbox start --detach')
    const stopAgain = await runGw(['sandbox', 'stop'], {env: home})
    expect(stopAgain.code).toBe(0)
    expect(stopAgain.stderr).toBe('The local gateway is not running.\n')
  })

  it('refuses to start a gateway other than the one running (exit 2, naming the flags); --restart starts it with them', async () => {
    const home = isolatedHome()
    const first = await runGw(['sandbox', 'start', '--detach', '--port', '0'], {env: home})
    expect(first.code, first.stderr).toBe(0)
    const url = first.stdout.trim()
    try {
      const different = await runGw(['sandbox', 'start', '--detach', '--webhook', 'http://127.0.0.1:9/hooks', '--mode', 'live'], {env: home})
      expect(different.code).toBe(2)
      expect(different.stdout).toBe('')
      expect(different.stderr).toMatch(
        new RegExp(`^Error: The local gateway already running at ${url} \\(pid \\d+\\) is not the one asked for: --mode live \\(it has sandbox\\), --webhook http://127\\.0\\.0\\.1:9/hooks \\(it has none\\)\\n`),
      )
      expect(different.stderr).toContain('Hint: Stop it first with gw sandbox stop, or add --restart to stop it and start one with these flags; or run another beside it with --name NAME.')
      // The same gateway asked for again is the one running.
      const same = await runGw(['sandbox', 'start', '--detach', '--mode', 'sandbox'], {env: home})
      expect(same.code).toBe(0)
      expect(same.stdout.trim()).toBe(url)

      const restarted = await runGw(['sandbox', 'start', '--detach', '--port', '0', '--webhook', 'http://127.0.0.1:9/hooks', '--restart'], {env: home})
      expect(restarted.code, restarted.stderr).toBe(0)
      expect(restarted.stderr).toContain(`Stopped the local gateway at ${url} to start it again.`)
      const status = await runGw(['sandbox', 'status', '--json'], {env: home})
      expect(status.json).toMatchObject({url: restarted.stdout.trim(), webhooks: ['http://127.0.0.1:9/hooks']})
    } finally {
      await runGw(['sandbox', 'stop'], {env: home})
    }
  })

  it('a second gateway in the foreground leaves profile local with the first', async () => {
    const home = isolatedHome()
    const first = await runGw(['sandbox', 'start', '--detach', '--port', '0'], {env: home})
    const url = first.stdout.trim()
    try {
      const second = await startSandbox([], home)
      expect(second.url).not.toBe(url)
      const shown = await runGw(['profile', 'show', 'local', '--json'], {env: home})
      expect(shown.json).toMatchObject({base_url: url})
      await second.stop()
      expect((await runGw(['profile', 'show', 'local', '--json'], {env: home})).json).toMatchObject({base_url: url})
      expect((await runGw(['sandbox', 'status', '--json'], {env: home})).json).toMatchObject({url})
    } finally {
      await runGw(['sandbox', 'stop'], {env: home})
    }
  })

  it('refuses a port in use with exit 2 and says what to do', async () => {
    const sandbox = await startSandbox()
    try {
      const port = new URL(sandbox.url).port
      const result = await runGw(['sandbox', 'start', '--port', port], {env: isolatedHome()})
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(`Error: Port ${port} on 127.0.0.1 is already in use`)
    } finally {
      await sandbox.stop()
    }
  })

  it('in the background, says what the gateway said as it failed, with its exit code; the port hint only when the port was the cause', async () => {
    const home = isolatedHome()
    const file = join(home.HOME!, 'state.json')
    writeFileSync(file, 'garbage')
    const state = await runGw(['sandbox', 'start', '--detach', '--port', '0', '--state', file], {env: home})
    expect(state.code).toBe(2)
    expect(state.stderr).toBe(`Error: ${file} is not a gw sandbox state file (not a SQLite database); move it away or pick another file\nHint: Pick another --state file: gw never overwrites a file it cannot read.\n`)
    const sandbox = await startSandbox()
    try {
      const port = new URL(sandbox.url).port
      const taken = await runGw(['sandbox', 'start', '--detach', '--port', port], {env: home})
      expect(taken.code).toBe(2)
      expect(taken.stderr).toBe(`Error: Port ${port} on 127.0.0.1 is already in use\nHint: Is a local gateway already running (gw sandbox status)? Or pick another --port, 0 for any free one.\n`)
    } finally {
      await sandbox.stop()
    }
  })

  it.each([['nosuchhost.invalid'], ['0.0.0.0.']])('--host %s, in the foreground or the background: exit 2 naming --host', async (host) => {
    for (const detach of [[], ['--detach']]) {
      const result = await runGw(['sandbox', 'start', '--port', '0', '--host', host, ...detach], {env: isolatedHome()})
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(new RegExp(`^Error: --host ${host.replaceAll('.', '\\.')} names no address gw can find \\((ENOTFOUND|EAI_AGAIN)\\): the local gateway cannot listen there\\n`))
    }
  })

  it('refuses a malformed --merchant', async () => {
    const result = await runGw(['sandbox', 'start', '--port', '0', '--merchant', 'nocolon'], {env: isolatedHome()})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Error: --merchant must be USER:TOKEN, got "nocolon"')
  })
})

// A sandbox gateway and a live-mode one side by side, each its own port, files and profile, by name.
describe('gw sandbox start --name: local gateways side by side', () => {
  it('runs a live-mode gateway beside the default one, each with its own profile, status lists both, stop takes a name', async () => {
    const home = isolatedHome()
    try {
      const first = await runGw(['sandbox', 'start', '--detach', '--port', '0'], {env: home})
      expect(first.code, first.stderr).toBe(0)
      const local = first.stdout.trim()
      const second = await runGw(['sandbox', 'start', '--name', 'rehearsal', '--mode', 'live', '--detach'], {env: home})
      expect(second.code, second.stderr).toBe(0)
      const rehearsal = second.stdout.trim()
      expect(rehearsal).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(rehearsal).not.toBe(local)
      expect(second.stderr).toContain(`Local gateway rehearsal running in the background at ${rehearsal}`)
      expect(second.stderr).toContain('Stop it with: gw sandbox stop --name rehearsal')
      expect(second.stderr).toContain('Profile "rehearsal" talks to this gateway as merchant TEST: gw --profile rehearsal ...')
      expect(existsSync(join(home.XDG_DATA_HOME!, 'gw', 'sandbox-rehearsal.json'))).toBe(true)

      const status = await runGw(['sandbox', 'status', '--json'], {env: home})
      expect(status.code).toBe(0)
      expect(status.records).toMatchObject([
        {name: 'local', url: local, mode: 'sandbox'},
        {name: 'rehearsal', url: rehearsal, mode: 'live'},
      ])
      expect((await runGw(['sandbox', 'status', '--name', 'rehearsal', '--json'], {env: home})).records).toMatchObject([{name: 'rehearsal', url: rehearsal}])
      expect((await runGw(['profile', 'show', 'rehearsal', '--json'], {env: home})).json).toMatchObject({environment: 'live', base_url: rehearsal, active: false})
      expect((await runGw(['profile', 'show', 'local', '--json'], {env: home})).json).toMatchObject({environment: 'sandbox', base_url: local, active: true})

      // The same one asked for again is the one running; the default one is not touched.
      const again = await runGw(['sandbox', 'start', '--name', 'rehearsal', '--mode', 'live', '--detach'], {env: home})
      expect(again.code, again.stderr).toBe(0)
      expect(again.stdout.trim()).toBe(rehearsal)

      // Each answers as itself.
      const live = await runGw(['purchase', 'create', '--profile', 'rehearsal', '--amount', '1000', '--reference', ref(), '--card', '-', '--yes', '--json'], {env: home, stdin: JSON.stringify({card_holder: 'Jane Citizen', card_number: '4242424242424242', card_expiry: '12/30', cvv: '123'})})
      expect(live.code, live.stderr).toBe(0)
      expect(live.json).toMatchObject({successful: true})
      const sandboxPurchase = await runGw(['purchase', 'create', '--amount', '1000', '--reference', ref(), ...cardArgs(), '--json'], {env: home})
      expect(sandboxPurchase.code, sandboxPurchase.stderr).toBe(0)

      const stopped = await runGw(['sandbox', 'stop', '--name', 'rehearsal'], {env: home})
      expect(stopped.code).toBe(0)
      expect(stopped.stderr).toBe(`Stopped the local gateway rehearsal at ${rehearsal}; its records are gone with it (it had no --state file).\n`)
      const left = await runGw(['sandbox', 'status', '--json'], {env: home})
      expect(left.records).toMatchObject([{name: 'local', url: local}])
      expect(left.records).toHaveLength(1)
      const gone = await runGw(['sandbox', 'status', '--name', 'rehearsal'], {env: home})
      expect(gone.code).toBe(1)
      expect(gone.stderr).toContain('Error: The local gateway rehearsal is not running')
      expect(gone.stderr).toContain('Hint: Start it with: gw sandbox start --detach --name rehearsal')
    } finally {
      await runGw(['sandbox', 'stop', '--all'], {env: home})
    }
    expect((await runGw(['sandbox', 'status'], {env: home})).code).toBe(1)
  })

  it('with --state, says nothing of records lost, at start or at stop', async () => {
    const home = isolatedHome()
    const state = join(home.HOME!, 'kept.sqlite')
    try {
      const started = await runGw(['sandbox', 'start', '--detach', '--port', '0', '--state', state], {env: home})
      expect(started.code, started.stderr).toBe(0)
      expect(started.stderr).not.toContain('in memory only')
      const stopped = await runGw(['sandbox', 'stop'], {env: home})
      expect(stopped.stderr).toBe(`Stopped the local gateway at ${started.stdout.trim()}.\n`)
    } finally {
      await runGw(['sandbox', 'stop', '--all'], {env: home})
    }
  })

  it('two named gateways started together, and stop --all stops both', async () => {
    const home = isolatedHome()
    try {
      const [a, b] = await Promise.all([
        runGw(['sandbox', 'start', '--name', 'shop-a', '--detach'], {env: home}),
        runGw(['sandbox', 'start', '--name', 'shop-b', '--mode', 'live', '--detach'], {env: home}),
      ])
      expect(a.code, a.stderr).toBe(0)
      expect(b.code, b.stderr).toBe(0)
      expect(a.stdout.trim()).not.toBe(b.stdout.trim())
      const profiles = ((await runGw(['profile', 'list', '--json'], {env: home})).records as {name: string; base_url: string}[]).map((p) => [p.name, p.base_url])
      expect(profiles).toEqual(expect.arrayContaining([['shop-a', a.stdout.trim()], ['shop-b', b.stdout.trim()]]))
      const all = await runGw(['sandbox', 'stop', '--all'], {env: home})
      const gone = '; its records are gone with it (it had no --state file)'
      expect(all.stderr).toBe(`Stopped the local gateway shop-a at ${a.stdout.trim()}${gone}.\nStopped the local gateway shop-b at ${b.stdout.trim()}${gone}.\n`)
    } finally {
      await runGw(['sandbox', 'stop', '--all'], {env: home})
    }
  })

  it("never takes the name of a profile someone made, nor a name that is not one (exit 2, nothing started)", async () => {
    const home = isolatedHome()
    const sandbox = await startSandbox(['--merchant', 'ACME:acme-token-123'])
    try {
      const login = await runGw(['login', '--profile', 'shop', '--base-url', sandbox.url, '--username', 'ACME', '--token-stdin', '--insecure-storage'], {env: home, stdin: 'acme-token-123\n'})
      expect(login.code, login.stderr).toBe(0)
      const taken = await runGw(['sandbox', 'start', '--name', 'shop', '--detach'], {env: home})
      expect(taken.code).toBe(2)
      expect(taken.stderr).toBe(`Error: Profile "shop" is yours (sandbox, ${sandbox.url}): a local gateway named shop would take its place. Nothing was started\nHint: Start it with another --name.\n`)
      expect((await runGw(['profile', 'show', 'shop', '--json'], {env: home})).json).toMatchObject({base_url: sandbox.url, username: 'ACME'})
      const bad = await runGw(['sandbox', 'start', '--name', '../x', '--detach'], {env: home})
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain('Error: --name must be a letter or digit, then letters, digits, _ or - (40 at most), got "../x"')
      expect((await runGw(['sandbox', 'status'], {env: home})).code).toBe(1)
    } finally {
      await sandbox.stop()
      await runGw(['sandbox', 'stop', '--all'], {env: home})
    }
  })
})

describe('gw sandbox start --state', () => {
  it('keeps purchases and refunds across a restart and never writes the CVV', async () => {
    const home = isolatedHome()
    const stateFile = join(home.HOME!, 'gateway.json')
    const first = await startSandbox(['--state', stateFile], home)
    const reference = ref()
    const purchase = (await first.gw(['purchase', 'create', '--amount', '4200', '--reference', reference, ...cardArgs().slice(0, -2), '--cvv', '987', '--json'])).json as {id: string}
    const refund = (await first.gw(['refund', 'create', '--transaction-id', purchase.id, '--amount', '200', '--reference', ref('refund'), '--json'])).json as {id: string}
    await first.stop()
    const saved = stateIn(stateFile).snapshot()
    expect(JSON.stringify(saved)).toContain(purchase.id)
    // The CVV as no field of it: a random authorization or id may hold the digits 987 by chance.
    expect(JSON.stringify(saved)).not.toMatch(/"cvv"|:"987"/)
    expect(readFileSync(stateFile, 'latin1')).not.toMatch(/"cvv"|:"987"|4242424242424242/)

    const second = await startSandbox(['--state', stateFile], home)
    try {
      expect((await second.gw(['purchase', 'get', reference, '--json'])).json).toMatchObject({id: purchase.id, amount: 4200})
      expect((await second.gw(['refund', 'get', refund.id, '--json'])).json).toMatchObject({id: refund.id, amount: -200})
      const more = await second.gw(['refund', 'create', '--transaction-id', purchase.id, '--amount', '4001', '--reference', ref('refund')])
      expect(more.code).toBe(7)
      expect(more.stderr).toContain('Amount exceeds the refundable balance of 4000')
    } finally {
      await second.stop()
    }
  })

  // The state file masks a card number inside a reference, so both of these are ref-411111XXXXXX1111 there.
  it('keeps two references masked alike two purchases, each found by its own, before and after a restart; the file holds neither number whole', async () => {
    const home = isolatedHome()
    const stateFile = join(home.HOME!, 'gateway.json')
    const references = ['ref-4111111000071111', 'ref-4111111111111111']
    const first = await startSandbox(['--state', stateFile], home)
    const ids: string[] = []
    try {
      for (const [index, reference] of references.entries()) {
        const made = await first.gw(['purchase', 'create', '--amount', String(1000 * (index + 1)), '--reference', reference, ...cardArgs(), '--json'])
        expect(made.code, made.stderr).toBe(0)
        ids.push((made.json as {id: string}).id)
      }
      expect(ids[0]).not.toBe(ids[1])
      for (const [index, reference] of references.entries()) {
        expect((await first.gw(['purchase', 'get', reference, '--json'])).json).toMatchObject({id: ids[index], amount: 1000 * (index + 1)})
      }
    } finally {
      await first.stop()
    }
    const bytes = readFileSync(stateFile)
    for (const whole of ['4111111000071111', '4111111111111111']) expect(bytes.includes(whole), whole).toBe(false)

    const second = await startSandbox(['--state', stateFile], home)
    try {
      for (const [index, reference] of references.entries()) {
        expect((await second.gw(['purchase', 'get', reference, '--json'])).json).toMatchObject({id: ids[index], amount: 1000 * (index + 1)})
      }
      // Still taken, each by its own reference.
      const again = await second.gw(['purchase', 'create', '--amount', '1000', '--reference', references[1]!, ...cardArgs()])
      expect(again.code).toBe(7)
      expect(again.stderr).toContain(`already taken by another purchase ${ids[1]}`)
    } finally {
      await second.stop()
    }
    // Nor does the request log beside it.
    for (const file of [stateFile, join(home.HOME!, 'gateway.requests.ndjson')]) {
      const held = readFileSync(file)
      for (const whole of ['4111111000071111', '4111111111111111']) expect(held.includes(whole), `${file}: ${whole}`).toBe(false)
    }
  })
})

describe('gw sandbox start --state with a file of the wrong shape', () => {
  it.each([
    ['a JSON document', '{"version":1,"merchants":{}}\n', /is not a gw sandbox state file \(not a SQLite database\)/],
    ['a file that is no database', 'garbage', /is not a gw sandbox state file \(not a SQLite database\)/],
  ])('refuses %s, naming the file, and leaves it as it was (exit 2)', async (_, content, message) => {
    const home = isolatedHome()
    const file = join(home.HOME!, 'state.json')
    writeFileSync(file, content)
    const result = await runGw(['sandbox', 'start', '--port', '0', '--state', file], {env: home})
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(message)
    expect(result.stderr).toContain(`Error: ${file} is not a gw sandbox state file`)
    expect(result.stderr).toContain('Hint: Pick another --state file: gw never overwrites a file it cannot read.')
    expect(readFileSync(file, 'utf8')).toBe(content)
  })

  it('refuses a state file of another layout than this gw reads (1), saying what to do, and leaves it as it was (exit 2)', async () => {
    const home = isolatedHome()
    const file = join(home.HOME!, 'state.json')
    const {DatabaseSync} = nodeSqlite()
    const db = new DatabaseSync(file)
    db.exec(`PRAGMA application_id = ${0x67777362}; PRAGMA user_version = 3; CREATE TABLE snapshot (state TEXT)`)
    db.close()
    const before = readFileSync(file)
    const result = await runGw(['sandbox', 'start', '--port', '0', '--state', file], {env: home})
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`Error: ${file} is a gw sandbox state file of layout 3, and this gw reads layout 1 only\nHint: Run it with the gw that wrote it, or give this one another --state file: gw never overwrites a file it cannot read.\n`)
    expect(readFileSync(file).equals(before)).toBe(true)
  })
})

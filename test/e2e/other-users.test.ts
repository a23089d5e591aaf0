import {randomBytes} from 'node:crypto'
import {chmodSync, existsSync, mkdtempSync, statSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {CountingProxy} from '../counting-proxy.js'
import {proxiedGateway, writeTemp} from './batch-helpers.js'
import {isolatedHome, ref, runGw, type Sandbox} from './helpers.js'
import {asOther as asOtherUser, makeOtherUser, type OtherUser, removeOtherUser, stickyFolder} from './other-user-helpers.js'

// Tried as the attacker would: a second user of this machine makes gw's files first in a
// folder both can write (a sticky one, as /tmp is), or plants a link there, and the user's gw must
// refuse each, naming it, and use nothing of theirs. The second user is made here (useradd), and
// acts as itself: it needs root, as CI runs; elsewhere the tests skip, saying why.

const user = makeOtherUser()
if ('reason' in user) console.warn(`Skipping the tests of another user's files: ${user.reason}`)
const other = user as OtherUser

describe.skipIf('reason' in user)("another user's files and links", () => {
  let sandbox: Sandbox
  let proxy: CountingProxy
  let token: string
  /** A folder anyone may make files in, none remove another's: as /tmp is. */
  let shared: string
  /** A file of the user's own that a planted link points at: it must be left as it is. */
  let target: string

  proxiedGateway((gateway) => void ({sandbox, proxy, token} = gateway))

  beforeAll(() => {
    shared = stickyFolder()
    target = join(mkdtempSync(join(tmpdir(), 'gw-mine-')), 'notes.txt')
    writeFileSync(target, "the user's own\n")
  })

  afterAll(() => {
    removeOtherUser(user)
  })

  /** Runs a shell script as the other user, in the shared folder. */
  const asOther = (script: string) => asOtherUser(other, shared, script)

  const belongs = (path: string) => new RegExp(`^Error: ${path.replaceAll('.', '\\.')} belongs to ${other.name} \\(uid ${other.uid}\\), not to you \\(root \\(uid 0\\)\\): gw uses only what is your own \\(or root's\\), as ssh does\\n`)
  const linked = (path: string) => new RegExp(`^Error: ${path.replaceAll('.', '\\.')} is a symbolic link made by ${other.name} \\(uid ${other.uid}\\), not by you \\(root \\(uid 0\\)\\): gw does not follow another user's links\\n`)
  const rows = () => writeTemp('purchases.ndjson', `${JSON.stringify({card_token: token, amount: 1000, reference: ref('theirs')})}\n`)

  it("a config folder another user made first, where HOME is shared (as under /tmp on CI runners): refused, naming it, and the token goes nowhere", async () => {
    const home = mkdtempSync(join(shared, 'home-'))
    chmodSync(home, 0o1777)
    const seen: string[] = []
    const listener: Server = createServer((req, res) => (seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`), res.writeHead(404).end()))
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    try {
      const theirs = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`
      const config = JSON.stringify({activeProfile: 'local', profiles: {local: {environment: 'sandbox', baseUrl: theirs, username: 'TEST', publicToken: 'TEST'}}})
      await asOther(`mkdir -p '${home}/.config/gw' && printf '%s' '${config}' > '${home}/.config/gw/config.json'`)
      const result = await runGw(['purchase', 'get', 'anything'], {env: {HOME: home}})
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(belongs(join(home, '.config')))
      expect(result.stderr).toContain(`Hint: Use a folder of your own; if it is yours, take it back (chown root ${join(home, '.config')}) once you have checked what it holds.\n`)
      expect(seen).toEqual([])
      // Nor does the user's own gw sandbox start write its profile there.
      const status = await runGw(['status', '--no-check'], {env: {HOME: home}})
      expect(status.code).toBe(2)
    } finally {
      listener.close()
    }
  })

  it('a --journal another user made empty: refused, nothing sent, and nothing written to it', async () => {
    await asOther('touch empty.sqlite && chmod 666 empty.sqlite')
    const journal = join(shared, 'empty.sqlite')
    const result = await runGw(['purchase', 'create', '--input', rows(), '--journal', journal], {env: sandbox.env({GW_BASE_URL: proxy.url})})
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(belongs(journal))
    expect(proxy.postCount()).toBe(0)
    expect(statSync(journal).size).toBe(0)
    // A dry run reads nothing of it either.
    const dry = await runGw(['purchase', 'create', '--input', rows(), '--journal', journal, '--dry-run'], {env: sandbox.env()})
    expect(dry.code).toBe(2)
    expect(dry.stderr).toMatch(belongs(journal))
  })

  it('a --save file another user made: refused before gw listen starts, and nothing saved to it', async () => {
    await asOther('touch events.ndjson && chmod 666 events.ndjson')
    const save = join(shared, 'events.ndjson')
    const result = await runGw(['listen', '--port', '0', '--no-register', '--save', save], {env: isolatedHome()})
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(new RegExp(`^Error: --save ${save.replaceAll('.', '\\.')} cannot be used: ${belongs(save).source.slice('^Error: '.length)}`))
    expect(statSync(save).size).toBe(0)
  })

  it('a --state file another user made: the local gateway does not start on it', async () => {
    await asOther('touch state.sqlite')
    const state = join(shared, 'state.sqlite')
    const result = await runGw(['sandbox', 'start', '--port', '0', '--state', state], {env: isolatedHome()})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`Error: The state file cannot be used: ${state} belongs to ${other.name} (uid ${other.uid}), not to you`)
    expect(statSync(state).size).toBe(0)
  })

  it('a link another user planted where the request log beside --state goes: the local gateway does not start, and writes nothing through it', async () => {
    const name = `beside-${randomBytes(3).toString('hex')}`
    const empty = join(mkdtempSync(join(tmpdir(), 'gw-mine-')), 'empty')
    writeFileSync(empty, '')
    await asOther(`ln -s '${empty}' ${name}.requests.ndjson`)
    const result = await runGw(['sandbox', 'start', '--port', '0', '--state', join(shared, `${name}.sqlite`)], {env: isolatedHome()})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`Error: Cannot write the request log ${join(shared, `${name}.requests.ndjson`)} (${join(shared, `${name}.requests.ndjson`)} is a symbolic link made by ${other.name}`)
    expect(statSync(empty).size).toBe(0)
  })

  it.each([
    ['--save', (file: string) => ['listen', '--port', '0', '--no-register', '--save', file]],
    ['--journal', (file: string) => ['purchase', 'create', '--input', rows(), '--journal', file]],
    ['--state', (file: string) => ['sandbox', 'start', '--port', '0', '--state', file]],
  ])("a link another user planted, as %s, to an empty file of the user's: never followed, and that file left empty", async (flag, args) => {
    const name = `link-${flag.slice(2)}-${randomBytes(3).toString('hex')}`
    const empty = join(mkdtempSync(join(tmpdir(), 'gw-mine-')), 'empty')
    writeFileSync(empty, '')
    await asOther(`ln -s '${empty}' ${name}`)
    const result = await runGw(args(join(shared, name)), {env: sandbox.env({...isolatedHome(), GW_BASE_URL: proxy.url})})
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(new RegExp(linked(join(shared, name)).source.replace('^Error: ', '')))
    expect(statSync(empty).size).toBe(0)
    expect(proxy.postCount()).toBe(0)
  })

  it("a link of theirs on the way to a file (a folder they point elsewhere) is refused too", async () => {
    const name = `dir-${randomBytes(3).toString('hex')}`
    await asOther(`ln -s '${join(target, '..')}' ${name}`)
    const save = join(shared, name, 'events.ndjson')
    const result = await runGw(['listen', '--port', '0', '--no-register', '--save', save], {env: isolatedHome()})
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(new RegExp(linked(join(shared, name)).source.replace('^Error: ', '')))
    expect(existsSync(join(target, '..', 'events.ndjson'))).toBe(false)
  })

  it("the user's own files in the shared folder are used as ever: made afresh, private", async () => {
    const save = join(shared, `mine-${randomBytes(3).toString('hex')}.sqlite`)
    const result = await runGw(['purchase', 'create', '--input', rows(), '--journal', save], {env: sandbox.env()})
    expect(result.code, result.stderr).toBe(0)
    expect(statSync(save).mode & 0o777).toBe(0o600)
  })
})

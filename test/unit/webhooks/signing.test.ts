import {createHmac} from 'node:crypto'
import {chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {createServer, type IncomingHttpHeaders} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {createForwarder} from '../../../src/webhooks/forward.js'
import {rotateSigningSecret, signatureHeader, signingSecret, signingSecretFile} from '../../../src/webhooks/signing.js'

const SECRET = 'gwsec_0123456789abcdefghijklmnopqrstuv'

describe('Gw-Signature', () => {
  it('is t=SECONDS,v1=the hex HMAC-SHA256 of "SECONDS.BODY", keyed by the secret', () => {
    const expected = createHmac('sha256', SECRET).update('1764000000.{"a":1}').digest('hex')
    expect(signatureHeader(SECRET, '{"a":1}', 1_764_000_000_999)).toBe(`t=1764000000,v1=${expected}`)
    expect(signatureHeader(SECRET, Buffer.from('{"a":1}'), 1_764_000_000_000)).toBe(`t=1764000000,v1=${expected}`)
  })

  it.each(['', 'gwsec_', 'gwsec_x', 'x'.repeat(40), 'gwsec_0123456789abcdefghijklmnopqrstu'])('is never made with an empty or short secret (%j)', (secret) => {
    expect(() => signatureHeader(secret, '{}')).toThrow('gw listen never signs with an empty or short secret')
  })

  it('a forward carries gw listen\'s own signature of the exact bytes, never one the sender put in', async () => {
    let seen: {headers: IncomingHttpHeaders; body: string} | undefined
    const app = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
        seen = {headers: req.headers, body: Buffer.concat(chunks).toString()}
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    const forwarder = createForwarder(`http://127.0.0.1:${(app.address() as AddressInfo).port}/`, 5000, undefined, SECRET)
    try {
      const body = Buffer.from('{"event":"card:expiring","payload":[]}')
      expect(await forwarder.send(body, {'content-type': 'application/json', 'gw-signature': 't=1,v1=00', 'x-service-mode': 'Sandbox'})).toMatchObject({status: 204})
      expect(seen!.body).toBe(body.toString())
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(seen!.headers['gw-signature']))!
      expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.${body.toString()}`).digest('hex'))
      expect(seen!.headers['x-service-mode']).toBe('Sandbox')
      // What did not pass a credentials check goes unsigned, and one a sender put in is dropped all the same.
      expect(await forwarder.send(body, {'gw-signature': 't=1,v1=00'}, false)).toMatchObject({status: 204})
      expect(seen!.headers['gw-signature']).toBeUndefined()
    } finally {
      await forwarder.close()
      app.close()
    }
  })
})

describe('the signing secret', () => {
  const folder = () => join(mkdtempSync(join(tmpdir(), 'gw-secret-')), 'gw')
  const said: string[] = []
  const tell = (why: string) => void said.push(why)

  it('is made once, 0600, and the same every time after', async () => {
    const dir = folder()
    said.length = 0
    const made = await signingSecret(dir, tell)
    expect(made).toMatch(/^gwsec_[A-Za-z0-9_-]{32}$/)
    expect(await signingSecret(dir, tell)).toBe(made)
    expect(statSync(signingSecretFile(dir)).mode & 0o777).toBe(0o600)
    expect(said).toEqual([])
  })

  it.each([
    ['empty', '', 'was empty (a crash or a full disk while it was made?), and a forward signed with it could be forged by anyone'],
    ['blank', ' \n', 'was empty (a crash or a full disk while it was made?), and a forward signed with it could be forged by anyone'],
    ['short', 'gwsec_short\n', "was shorter than gw makes them (5 characters after gwsec_; gw's are gwsec_ and 32 or more letters, digits, _ or -), and a short key makes a signature anyone could forge"],
    // 47 characters, long enough: not short, only not gw's.
    ['other program\'s', `${'k'.repeat(47)}\n`, "was not one gw makes (47 characters, not starting gwsec_; gw's are gwsec_ and 32 or more letters, digits, _ or -), and gw signs only with a random secret it made itself"],
    ['oddly spelt', `gwsec_${'é'.repeat(40)}\n`, "was not one gw makes (it holds characters other than letters, digits, _ or - after gwsec_; gw's are gwsec_ and 32 or more letters, digits, _ or -), and gw signs only with a random secret it made itself"],
  ])('an %s one is replaced by a new one, and said so', async (_, text, why) => {
    const dir = folder()
    await signingSecret(dir, tell)
    writeFileSync(signingSecretFile(dir), text)
    said.length = 0
    const made = await signingSecret(dir, tell)
    expect(made).toMatch(/^gwsec_[A-Za-z0-9_-]{32}$/)
    expect(readFileSync(signingSecretFile(dir), 'utf8')).toBe(`${made}\n`)
    expect(said).toEqual([`the signing secret in ${signingSecretFile(dir)} ${why}: gw made a new one. An app that checks Gw-Signature needs it: gw listen --print-secret prints it.`])
  })

  it('one others could read or change is replaced, private again', async () => {
    const dir = folder()
    const old = await signingSecret(dir, tell)
    chmodSync(signingSecretFile(dir), 0o644)
    said.length = 0
    const made = await signingSecret(dir, tell)
    expect(made).not.toBe(old)
    expect(statSync(signingSecretFile(dir)).mode & 0o777).toBe(0o600)
    expect(said).toEqual([`the signing secret in ${signingSecretFile(dir)} could be read or changed by others (mode 0644), so it may be known: gw made a new one. An app that checks Gw-Signature needs it: gw listen --print-secret prints it.`])
  })

  it('is rotated: a new one in its place, kept', async () => {
    const dir = folder()
    const old = await signingSecret(dir, tell)
    const rotated = await rotateSigningSecret(dir)
    expect(rotated).toMatch(/^gwsec_[A-Za-z0-9_-]{32}$/)
    expect(rotated).not.toBe(old)
    expect(await signingSecret(dir, tell)).toBe(rotated)
  })
})

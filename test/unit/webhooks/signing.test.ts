import {createHmac} from 'node:crypto'
import {createServer, type IncomingHttpHeaders} from 'node:http'
import type {AddressInfo} from 'node:net'
import {describe, expect, it} from 'vitest'
import {createForwarder} from '../../../src/webhooks/forward.js'
import {signatureHeader} from '../../../src/webhooks/signing.js'

describe('Gw-Signature', () => {
  it('is t=SECONDS,v1=the hex HMAC-SHA256 of "SECONDS.BODY", keyed by the secret', () => {
    const expected = createHmac('sha256', 'gwsec_x').update('1764000000.{"a":1}').digest('hex')
    expect(signatureHeader('gwsec_x', '{"a":1}', 1_764_000_000_999)).toBe(`t=1764000000,v1=${expected}`)
    expect(signatureHeader('gwsec_x', Buffer.from('{"a":1}'), 1_764_000_000_000)).toBe(`t=1764000000,v1=${expected}`)
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
    const forwarder = createForwarder(`http://127.0.0.1:${(app.address() as AddressInfo).port}/`, 5000, undefined, 'gwsec_x')
    try {
      const body = Buffer.from('{"event":"card:expiring","payload":[]}')
      expect(await forwarder.send(body, {'content-type': 'application/json', 'gw-signature': 't=1,v1=00', 'x-service-mode': 'Sandbox'})).toMatchObject({status: 204})
      expect(seen!.body).toBe(body.toString())
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(seen!.headers['gw-signature']))!
      expect(v1).toBe(createHmac('sha256', 'gwsec_x').update(`${t}.${body.toString()}`).digest('hex'))
      expect(seen!.headers['x-service-mode']).toBe('Sandbox')
    } finally {
      await forwarder.close()
      app.close()
    }
  })
})

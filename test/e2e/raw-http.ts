import {connect} from 'node:net'

/** One request as written on the wire, every header as given: a forged Host, an Origin, HTTP/1.0 without a Host. */
export interface RawRequest {
  method: string
  path: string
  /** HTTP/1.1 unless given. */
  version?: '1.0' | '1.1'
  /** Sent as they are, in this order; no Host unless given here. */
  headers?: Record<string, string>
  body?: string
}

export interface RawAnswer {
  status: number
  /** Names in lower case. */
  headers: Record<string, string>
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read whatever was sent
  body: any
}

/** Sends the request over a connection of its own to `url`'s host and port, and reads the answer until the connection closes. */
export function rawRequest(url: string, request: RawRequest): Promise<RawAnswer> {
  const {hostname, port} = new URL(url)
  const lines = [`${request.method} ${request.path} HTTP/${request.version ?? '1.1'}`]
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`${name}: ${value}`)
  if (request.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(request.body)}`)
  lines.push('Connection: close', '', request.body ?? '')
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''), () => socket.write(lines.join('\r\n')))
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8')
      const end = answer.indexOf('\r\n\r\n')
      if (end === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(answer)}`))
      const [statusLine, ...headerLines] = answer.slice(0, end).split('\r\n')
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      const text = answer.slice(end + 4)
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      }
      resolve({status: Number(statusLine!.split(' ')[1]), headers, text, body})
    })
  })
}

/** Headers a vendor's client library sends (gateway-notes.md): Basic, JSON both ways, a User-Agent naming the library. */
export function libraryHeaders(host: string, {json = true, credentials = 'TEST:TEST'} = {}): Record<string, string> {
  return {
    Host: host,
    Authorization: 'Basic ' + Buffer.from(credentials).toString('base64'),
    Accept: 'application/json',
    'User-Agent': 'gateway-ruby/2.3.1 (ruby 3.3.0)',
    ...(json ? {'Content-Type': 'application/json'} : {}),
  }
}

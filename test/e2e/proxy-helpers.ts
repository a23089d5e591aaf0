import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync} from 'node:fs'
import {createServer as createHttpServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse} from 'node:http'
import {createServer as createHttpsServer} from 'node:https'
import {type AddressInfo, connect, type Socket} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {createServer as createTlsServer} from 'node:tls'

/** What the proxy was asked to carry: `POST http://host:port/path`, or `CONNECT host:port`. */
export interface ProxiedRequest {
  method: string
  target: string
  /** The Proxy-Authorization header, decoded from Basic; undefined when none came. */
  credentials?: string
}

export interface ForwardProxy {
  url: string
  seen: ProxiedRequest[]
  close(): Promise<void>
}

export interface ProxyOptions {
  /** Where the proxy connects for each `host:port` asked of it: it does the name lookups, not gw. */
  routes: Record<string, number>
  /** USER:PASSWORD the proxy demands (407 without it). */
  credentials?: string
  /** A certificate and key: the proxy itself is then reached over TLS (an https:// proxy). */
  tls?: Certificate
}

/**
 * A forward proxy as corporate networks run them: plain-http requests in absolute form, https
 * tunnelled through CONNECT. It resolves names itself from `routes`, so a host gw cannot look up
 * is reached only through it.
 */
export async function startForwardProxy(options: ProxyOptions): Promise<ForwardProxy> {
  const seen: ProxiedRequest[] = []
  const upstream = (authority: string) => options.routes[authority.toLowerCase()]
  const admitted = (req: IncomingMessage, method: string, target: string) => {
    const header = req.headers['proxy-authorization']
    const credentials = header?.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString() : undefined
    seen.push({method, target, credentials})
    return !options.credentials || credentials === options.credentials
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const target = new URL(req.url ?? '/', 'http://no-host.invalid')
    if (!admitted(req, req.method ?? 'GET', target.href)) {
      res.writeHead(407, {'proxy-authenticate': 'Basic realm="test proxy"'}).end('proxy credentials needed')
      return
    }
    const port = upstream(target.host)
    if (port === undefined) {
      res.writeHead(502).end(`test proxy: no route to ${target.host}`)
      return
    }
    const headers = {...req.headers}
    delete headers['proxy-authorization']
    delete headers['proxy-connection']
    const onward = httpRequest({host: '127.0.0.1', port, method: req.method, path: target.pathname + target.search, headers}, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    onward.on('error', () => res.writeHead(502).end('test proxy: upstream failed'))
    req.pipe(onward)
  }

  const onConnect = (req: IncomingMessage, client: Socket, head: Buffer) => {
    const authority = req.url ?? ''
    client.on('error', () => client.destroy())
    if (!admitted(req, 'CONNECT', authority)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n')
      return
    }
    const port = upstream(authority)
    if (port === undefined) {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n')
      return
    }
    const onward = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      onward.write(head)
      onward.pipe(client).pipe(onward)
    })
    onward.on('error', () => client.destroy())
  }

  const server: Server = options.tls ? createHttpsServer({cert: options.tls.cert, key: options.tls.key}, onRequest) : createHttpServer(onRequest)
  server.on('connect', onConnect)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `${options.tls ? 'https' : 'http'}://${options.tls ? 'localhost' : '127.0.0.1'}:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve()).closeAllConnections()),
  }
}

export interface Certificate {
  cert: string
  key: string
  /** The certificate's file, for NODE_EXTRA_CA_CERTS. */
  certFile: string
}

/** Whether openssl can make the throwaway certificate; the reason to skip when it cannot. */
export function opensslMissing(): string | undefined {
  try {
    execFileSync('openssl', ['version'], {stdio: 'ignore'})
    return undefined
  } catch {
    return 'openssl is not installed (apt-get install openssl); it makes the test certificate'
  }
}

/** A throwaway self-signed certificate for gateway.test and localhost, made fresh for each run. */
export function throwawayCertificate(): Certificate {
  const dir = mkdtempSync(join(tmpdir(), 'gw-tls-'))
  const certFile = join(dir, 'cert.pem')
  const keyFile = join(dir, 'key.pem')
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=gw test gateway', '-addext', 'subjectAltName=DNS:gateway.test,DNS:localhost'], {stdio: 'ignore'})
  return {cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile}
}

/** TLS in front of the sandbox, as a real gateway has: decrypts and passes the bytes to `port`. */
export async function startTlsFront(port: number, certificate: Certificate): Promise<{port: number; close(): Promise<void>}> {
  const sockets = new Set<Socket>()
  const server = createTlsServer({cert: certificate.cert, key: certificate.key}, (secure) => {
    const plain = connect(port, '127.0.0.1')
    for (const socket of [secure, plain]) {
      sockets.add(socket)
      socket.on('error', () => socket.destroy())
      socket.on('close', () => sockets.delete(socket))
    }
    secure.pipe(plain).pipe(secure)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

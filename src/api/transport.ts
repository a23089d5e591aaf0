import type {Agent as AgentType, Dispatcher} from 'undici'
import Agent from 'undici/lib/dispatcher/agent.js'
import dispatchRequest from 'undici/lib/api/api-request.js'
import type {ProxySettings} from './proxy.js'

export interface TransportOptions {
  connectTimeoutMs: number
  keepAliveTimeoutMs: number
}

/**
 * undici's index also loads fetch, WebSocket, mocks and caches: ~90 ms of every command's start.
 * The client needs an Agent and request() only, so it loads those two modules (measured: 35 ms),
 * and the proxy agent only when a proxy is set.
 */
async function createDispatcher({connectTimeoutMs, keepAliveTimeoutMs}: TransportOptions, proxy?: ProxySettings): Promise<Dispatcher> {
  const options: AgentType.Options = {connect: {timeout: connectTimeoutMs}, keepAliveTimeout: keepAliveTimeoutMs}
  if (!proxy) return new Agent(options)
  const [{default: EnvHttpProxyAgent}, {default: Dispatcher}, {default: connect}] = await Promise.all([
    import('undici/lib/dispatcher/env-http-proxy-agent.js'),
    import('undici/lib/dispatcher/dispatcher.js'),
    import('undici/lib/api/api-connect.js'),
  ])
  // The proxy agent opens tunnels with Dispatcher#connect, which undici's index attaches; gw skips the index.
  Dispatcher.prototype.connect ??= connect
  return new EnvHttpProxyAgent({
    ...options,
    // Given explicitly ('' for unset), so undici never reads the environment behind gw's back.
    httpProxy: proxy.http?.url ?? '',
    httpsProxy: proxy.https?.url ?? '',
    noProxy: proxy.noProxy,
    proxyTls: {timeout: connectTimeoutMs},
    // Plain-http requests go to the proxy as they are, as curl and npm send them: many proxies
    // allow CONNECT to port 443 only. https is tunnelled with CONNECT either way.
    proxyTunnel: false,
  })
}

/** A dispatcher made on the first request and ended only if it was made: nothing loads for a command that sends none. */
export interface LazyDispatcher {
  get(): Promise<Dispatcher>
  /** `close` lets requests in flight finish; `destroy` ends the sockets at once. */
  end(how: 'close' | 'destroy'): Promise<void>
}

export function lazyDispatcher(options: TransportOptions, proxy?: ProxySettings): LazyDispatcher {
  let made: Promise<Dispatcher> | undefined
  return {
    get: () => (made ??= createDispatcher(options, proxy)),
    async end(how) {
      if (!made) return
      const dispatcher = await made
      await (how === 'destroy' ? withoutStack(() => dispatcher.destroy()) : dispatcher.close())
    },
  }
}

/**
 * undici's destroy() makes the error it ends its sockets with there and then, and Node's streams
 * read that error's stack when a socket is destroyed with it. Formatting a stack trace makes V8
 * find the line ends of every script in it, and gw's bundle is 2.6 MB: ~6 ms of every command
 * that sent a request, for a stack nobody sees. The error is made with none.
 */
function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return make()
  } finally {
    Error.stackTraceLimit = limit
  }
}

export function request(dispatcher: Dispatcher, url: string, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  const {origin, pathname, search} = new URL(url)
  return dispatchRequest.call(dispatcher, {...options, origin, path: pathname + search})
}

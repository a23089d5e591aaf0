import type {Agent as AgentType, Dispatcher} from 'undici'
import Agent from 'undici/lib/dispatcher/agent.js'
import dispatchRequest from 'undici/lib/api/api-request.js'

/**
 * undici's index also loads fetch, WebSocket, mocks and caches: ~90 ms of every command's start.
 * The client needs an Agent and request() only, so it loads those two modules (measured: 35 ms).
 */
export function createAgent(options: AgentType.Options): Dispatcher {
  return new Agent(options)
}

export function request(dispatcher: Dispatcher, url: string, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  const {origin, pathname, search} = new URL(url)
  return dispatchRequest.call(dispatcher, {...options, origin, path: pathname + search})
}

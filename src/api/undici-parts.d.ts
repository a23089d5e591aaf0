// Types for the two undici modules the client loads directly (see transport.ts).
declare module 'undici/lib/dispatcher/agent.js' {
  import type {Agent} from 'undici'
  const AgentClass: typeof Agent
  export default AgentClass
}

declare module 'undici/lib/api/api-request.js' {
  import type {Dispatcher} from 'undici'
  export default function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>
}

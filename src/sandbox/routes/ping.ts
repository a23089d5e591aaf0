import type {SandboxContext} from '../context.js'
import type {MerchantRequest, RouteResult} from './route.js'

/**
 * `GET /ping?echo=TEXT`: the bare body the gateway answers, `{"timestamp": <Unix seconds>,
 * "echo": TEXT}`, no envelope (gateway-beyond.md §11). Without `echo` it is null. It takes a
 * merchant's credentials, as every recorded call sent them: a client that pings here works
 * whether or not the live gateway asks for them.
 */
export function ping({query}: MerchantRequest, ctx: SandboxContext): RouteResult {
  return {status: 200, response: {timestamp: Math.floor(ctx.clock.now().getTime() / 1000), echo: query.echo ?? null}, bare: true}
}

import type * as z from 'zod'
import type {GatewayClient} from './client.js'
import {endpoints} from './endpoints.js'
import type {DeliveryQuery} from './schemas/sandbox-control.js'

/** A filter of the request log as the query string carries it: statuses joined by commas. */
export interface RequestLogFilter {
  status?: readonly string[]
  path?: string
  merchant?: string
  limit?: number
  after?: number
}

/** The local gateway's own control API under /_sandbox/ (src/sandbox/routes/control.ts), not part of the contract. */
export function sandboxControl(client: GatewayClient) {
  return {
    clock: () => client.send(endpoints.sandbox.clock),
    advanceClock: (body: z.infer<typeof endpoints.sandbox.advanceClock.body>) => client.send(endpoints.sandbox.advanceClock, {body}),
    trigger: (body: z.infer<typeof endpoints.sandbox.trigger.body>) => client.send(endpoints.sandbox.trigger, {body}),
    requests: ({status, ...rest}: RequestLogFilter) => client.send(endpoints.sandbox.requests, {query: {...rest, status: status?.join(',')}}),
    deliveries: (query: DeliveryQuery) => client.send(endpoints.sandbox.deliveries, {query}),
    redeliver: (id: string) => client.send(endpoints.sandbox.redeliver, {params: {id}}),
  }
}

import type * as z from 'zod'
import {type Endpoint, endpoints} from './endpoints.js'
import type {ListPage} from './paging.js'
import type {Answer} from './responses.js'
import type {GwRecord} from './schemas/record.js'

type ItemOf<List> = NonNullable<List> extends readonly (infer Item)[] ? Item : never

/** Which records of a list to ask for (the gateway's names for them, gateway-notes.md), and within which days. */
export interface ListQuery {
  offset: number
  limit: number
  /** The same place as a page number, for a gateway that pages by page and per_page. */
  page?: number
  from?: string
  to?: string
}

export type Query = Record<string, string | number | undefined>

export interface SendOptions {
  params?: Record<string, string>
  body?: unknown
  query?: Query
}

/** What the resource methods send through (the client). */
export interface Sender {
  send<Res extends z.ZodType>(endpoint: Endpoint<Res>, options?: SendOptions): Promise<z.infer<Res> & GwRecord>
  sendList<Res extends z.ZodType>(endpoint: Endpoint<Res>, options?: SendOptions): Promise<ListPage<ItemOf<z.infer<Res>>>>
  /** The whole answer, not only its record: a purchase or refund is reported with its status and request id. */
  answer<Res extends z.ZodType>(endpoint: Endpoint<Res>, options?: SendOptions): Promise<Answer<Res>>
}

type Keyed = {path: `${string}{${string}}${string}`}
type Sent<R extends z.ZodType> = Promise<z.infer<R> & GwRecord>

/**
 * The method an endpoint becomes, by its shape: a paged list takes where its page starts; money
 * answers whole; a key in the path is the first argument, a body the last; anything else takes a
 * query.
 */
type Method<E> = E extends {paged: true; response: infer R extends z.ZodType}
  ? (query: ListQuery) => Promise<ListPage<ItemOf<z.infer<R>>>>
  : E extends {movesMoney: object; body: infer B extends z.ZodType; response: infer R extends z.ZodType}
    ? (body: z.infer<B>) => Promise<Answer<R>>
    : E extends Keyed & {body: infer B extends z.ZodType; response: infer R extends z.ZodType}
      ? (key: string, body: z.infer<B>) => Sent<R>
      : E extends Keyed & {response: infer R extends z.ZodType}
        ? (key: string) => Sent<R>
        : E extends {body: infer B extends z.ZodType; response: infer R extends z.ZodType}
          ? (body: z.infer<B>) => Sent<R>
          : E extends {response: infer R extends z.ZodType}
            ? (query?: Query) => Sent<R>
            : never

type Table = typeof endpoints

/** Every group of the endpoint table as the client's methods: `client.purchases.get(id)`. */
export type Resources = {[G in keyof Table]: {[M in keyof Table[G]]: Method<Table[G][M]>}}

/** The client's resource methods, made from the endpoint table: an endpoint declared there is a method here. */
export function resources(sender: Sender): Resources {
  const group = (members: Record<string, Endpoint>) => Object.fromEntries(Object.entries(members).map(([name, endpoint]) => [name, method(sender, endpoint)]))
  return Object.fromEntries(Object.entries(endpoints).map(([name, members]) => [name, group(members)])) as Resources
}

function method(sender: Sender, endpoint: Endpoint): (...args: never[]) => Promise<unknown> {
  const key = /\{(\w+)\}/.exec(endpoint.path)?.[1]
  if (endpoint.paged) return (query: ListQuery) => sender.sendList(endpoint, {query: listQuery(query)})
  if (endpoint.movesMoney) return (body: unknown) => sender.answer(endpoint, {body})
  if (key !== undefined) return (value: string, body?: unknown) => sender.send(endpoint, {params: {[key]: value}, body})
  if (endpoint.body) return (body: unknown) => sender.send(endpoint, {body})
  return (query?: Query) => sender.send(endpoint, {query})
}

/** A page asked for by offset and limit, and by page and per_page alike, so either way of paging reads it. */
function listQuery({offset, limit, page, from, to}: ListQuery): Query {
  return {offset, limit, ...(page === undefined ? {} : {page, per_page: limit}), from, to}
}

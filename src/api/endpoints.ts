import * as z from 'zod'
import {Card, CardTokenize, CardUpdate, Purchase, PurchaseCreate, Refund, RefundCreate, WebHook, WebHookCreate} from './schemas/index.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface Endpoint<Res extends z.ZodType = z.ZodType, Body extends z.ZodType | undefined = z.ZodType | undefined> {
  method: HttpMethod
  /** Contract form of the path; `{name}` placeholders are filled from params, URL-encoded. */
  path: string
  body?: Body
  response: Res
  /**
   * A POST that moves money: never retried, a decline is an outcome (exit 3), and when no answer
   * comes back the record is looked up by its reference through this endpoint.
   */
  movesMoney?: {lookup: Endpoint<Res, undefined>; noun: string; getCommand: string}
}

const define = <Res extends z.ZodType, Body extends z.ZodType | undefined = undefined>(
  endpoint: Endpoint<Res, Body>,
): Endpoint<Res, Body> => endpoint

const getPurchase = define({method: 'GET', path: '/v1.0/purchases/{id}', response: Purchase})
const getRefund = define({method: 'GET', path: '/v1.0/refunds/{id}', response: Refund})

export const endpoints = {
  cards: {
    tokenize: define({method: 'POST', path: '/v1.0/credit_cards', body: CardTokenize, response: Card}),
    get: define({method: 'GET', path: '/v1.0/credit_cards/{token}', response: Card}),
    update: define({method: 'PUT', path: '/v1.0/credit_cards/{token}', body: CardUpdate, response: Card}),
  },
  purchases: {
    create: define({
      method: 'POST',
      path: '/v1.0/purchases',
      body: PurchaseCreate,
      response: Purchase,
      movesMoney: {lookup: getPurchase, noun: 'purchase', getCommand: 'gw purchase get'},
    }),
    get: getPurchase,
  },
  refunds: {
    create: define({
      method: 'POST',
      path: '/v1.0/refunds',
      body: RefundCreate,
      response: Refund,
      movesMoney: {lookup: getRefund, noun: 'refund', getCommand: 'gw refund get'},
    }),
    get: getRefund,
  },
  webHooks: {
    create: define({method: 'POST', path: '/v1.0/web_hooks', body: WebHookCreate, response: WebHook}),
    list: define({method: 'GET', path: '/v1.0/web_hooks', response: z.array(WebHook)}),
    delete: define({method: 'DELETE', path: '/v1.0/web_hooks/{id}', response: WebHook}),
  },
} as const

/** Fills `{name}` placeholders; ids and references may hold any character, so each is encoded. */
export function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`)
    return encodeURIComponent(value)
  })
}

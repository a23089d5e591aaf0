import * as z from 'zod'
import {lazily} from './lazy.js'
import {looseBoolean, looseString, maybe} from './common.js'

/** A registered web hook (gateway-notes.md: registration is not in the contract). */
export const WebHook = lazily(() =>
  z.looseObject({
    id: looseString,
    name: looseString,
    address: looseString,
    events: maybe(z.union([z.string(), z.array(z.string())])),
    mode: looseString,
    authentication_username: looseString,
    /** `""` when none was given. */
    authentication_password: looseString,
    /** Null on creation and update, true in a list (gateway-notes.md). */
    is_active: looseBoolean,
  }),
)
export type WebHook = z.infer<typeof WebHook>

export const WebHookCreate = lazily(() =>
  z.object({
    name: z.string(),
    address: z.string(),
    /** `*` for every event, or a list of event names. */
    events: z.union([z.literal('*'), z.array(z.string()).nonempty()]),
    mode: z.enum(['Test', 'Live']),
    authentication_username: z.string().optional(),
    authentication_password: z.string().optional(),
  }),
)
export type WebHookCreate = z.infer<typeof WebHookCreate>

/** `PUT /v1.0/web_hooks/{id}`: the fields to change; the rest are kept (gateway-beyond.md §12). */
export const WebHookUpdate = lazily(() =>
  z.object({
    name: z.string().optional(),
    address: z.string().optional(),
    events: z.union([z.literal('*'), z.array(z.string()).nonempty()]).optional(),
    mode: z.enum(['Test', 'Live']).optional(),
    authentication_username: z.string().optional(),
    authentication_password: z.string().optional(),
  }),
)
export type WebHookUpdate = z.infer<typeof WebHookUpdate>

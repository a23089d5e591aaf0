import * as z from 'zod'
import {lazily} from './lazy.js'
import {looseString, maybe} from './common.js'

/** `GET /ping?echo=TEXT`: a bare body, without the envelope (gateway-beyond.md §11). */
export const Ping = lazily(() =>
  z.looseObject({
    /** Unix seconds at the gateway. */
    timestamp: maybe(z.number()),
    echo: looseString,
  }),
)
export type Ping = z.infer<typeof Ping>

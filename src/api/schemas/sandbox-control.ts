import * as z from 'zod'
import {looseInt, looseString, maybe} from './common.js'
import {WEBHOOK_EVENTS} from './recurring-rules.js'

/** The local gateway's control API under /_sandbox/: its virtual clock and sample events. */
export const SandboxClock = z.looseObject({today: looseString})
export type SandboxClock = z.infer<typeof SandboxClock>

export const ClockAdvance = z.union([
  z.object({days: z.number().int().positive()}),
  z.object({to: z.string()}),
])
export type ClockAdvance = z.infer<typeof ClockAdvance>

export const ClockAdvanced = z.looseObject({
  from: looseString,
  today: looseString,
  days: looseInt,
  events: maybe(z.union([z.number().int(), z.array(z.unknown())])),
  charges_approved: looseInt,
  charges_declined: looseInt,
  deliveries_queued: looseInt,
})
export type ClockAdvanced = z.infer<typeof ClockAdvanced>

export const TriggerRequest = z.object({
  event: z.enum(WEBHOOK_EVENTS),
  webhook: z.string().optional(),
})
export type TriggerRequest = z.infer<typeof TriggerRequest>

export const Triggered = z.looseObject({
  event: looseString,
  delivered_to: maybe(z.array(z.string())),
  payload: maybe(z.array(z.unknown())),
})
export type Triggered = z.infer<typeof Triggered>

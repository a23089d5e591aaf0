/**
 * The order a list of web hooks comes in (gw sandbox start --web-hook-order). Web hooks carry no
 * dates: the recordings list them oldest first in 2017 and 2019, newest first in 2018.
 */
export const WEB_HOOK_ORDERS = ['oldest', 'newest'] as const
export type WebHookOrder = (typeof WEB_HOOK_ORDERS)[number]

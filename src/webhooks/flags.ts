import {Flags} from '@oclif/core'
import {UsageError} from '../errors.js'

/** Flags `gw listen` and `gw listen replay` share; light, since command files import them at the top. */
export const events = Flags.string({description: 'only these events: comma-separated globs such as charge:*,card:expired', multiple: true, multipleNonGreedy: true})

export const forwardTo = Flags.custom<string>({
  description: "pass each delivery on to your app at this URL and answer with your app's status",
  parse: async (input) => httpUrl('forward-to', input),
})

export const forwardTimeout = Flags.integer({description: 'seconds to wait for your app', default: 30, min: 1})

function httpUrl(flag: string, input: string): string {
  const problem = new UsageError(`--${flag} must be an http:// or https:// URL, got "${input}"`, 'For example --forward-to http://localhost:3000/webhooks.')
  if (!URL.canParse(input)) throw problem
  const url = new URL(input)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw problem
  return url.toString()
}

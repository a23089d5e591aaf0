import {Flags} from '@oclif/core'
import {UsageError} from '../errors.js'
import {readGivenSecret} from './secret-file.js'
import {credentialPair} from './validate.js'

// Flags of `gw listen`, `gw listen replay` and `gw webhook create`; light, since command files import them at the top.

export const events = Flags.string({description: 'only these events: comma-separated globs such as charge:*,card:expired', multiple: true, multipleNonGreedy: true})

export const forwardTo = Flags.custom<string>({
  description: "pass each delivery on to your app at this URL (http:// when it names no scheme: localhost:3000/hooks) and answer with your app's status",
  // As stripe listen --forward-to takes it: an app on this machine is reached over plain http.
  parse: async (input) => httpUrl('forward-to', /^[a-z][a-z\d+.-]*:\/\//i.test(input.trim()) ? input : `http://${input.trim()}`, input),
})

export const forwardTimeout = Flags.integer({description: 'seconds to wait for your app', default: 30, min: 1})

/** The address the gateway delivers web hooks to. */
export const url = Flags.custom<string>({
  description: 'http:// or https:// address the gateway delivers web hooks to',
  parse: async (input) => httpUrl('url', input),
})

/** USER:PASS that deliveries carry as Basic credentials, or `stdin` for `-`: a password is better kept out of argv. */
export const auth = Flags.custom<{username: string; password: string} | 'stdin'>({
  description: 'USER:PASS that deliveries must carry as Basic credentials; - reads it from stdin',
  parse: async (input) => (input === '-' ? 'stdin' : parseAuth(input)),
})

/** A file holding USER:PASS, as --auth takes them: the password in no argv and no shell history. */
export const authFile = Flags.custom<{file: string}>({
  description: 'read USER:PASS for --auth from this file, yours alone to read (chmod 600)',
  exclusive: ['auth'],
  parse: async (input) => ({file: input}),
})

function parseAuth(input: string): {username: string; password: string} {
  const pair = credentialPair(input)
  // Not echoed: what was typed may be the password.
  if (!pair) throw new UsageError('--auth must be USER:PASS', 'For example --auth hooks:s3cret, or --auth - to read it from stdin.')
  return {username: pair.username, password: pair.secret}
}

function httpUrl(flag: string, input: string, given = input): string {
  const problem = new UsageError(`--${flag} must be an http:// or https:// URL, got "${given}"`, `For example --${flag} http://localhost:3000/webhooks.`)
  if (!URL.canParse(input)) throw problem
  const url = new URL(input)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw problem
  return url.toString()
}

/** --auth as given, read from stdin for `-`, or --auth-file's. */
export async function readAuth(
  value: {username: string; password: string} | 'stdin' | {file: string} | undefined,
  io: {isStdinTTY: boolean; readStdin(): Promise<string>},
  command: string,
): Promise<{username: string; password: string} | undefined> {
  if (typeof value === 'object' && 'file' in value) return parseAuth(authFromFile(value.file))
  if (value !== 'stdin') return value
  if (io.isStdinTTY) throw new UsageError('--auth - reads USER:PASS from stdin, but stdin is a terminal', `Pipe it in: echo "hooks:s3cret" | gw ${command} --auth -`)
  return parseAuth((await io.readStdin()).trim())
}

/** The text of --auth-file's file, refused (as a token file is) when it is not the user's alone: a password others can read is known. */
function authFromFile(file: string): string {
  return readGivenSecret(`--auth-file ${file}`, file, "(umask 077; printf '%s\\n' 'hooks:s3cret' > hooks.auth)").trim()
}

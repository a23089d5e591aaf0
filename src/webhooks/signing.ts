import {createHmac, randomBytes} from 'node:crypto'
import {dirname, join} from 'node:path'

/**
 * gw listen signs what it forwards, as the Stripe CLI does (Stripe-Signature), so an app can check
 * a delivery came through gw listen: `Gw-Signature: t=UNIX_SECONDS,v1=HEX`, v1 being the
 * HMAC-SHA256, keyed by the signing secret, of the seconds, a dot and the body as forwarded.
 */
export const SIGNATURE_HEADER = 'Gw-Signature'

/** A secret as gw makes one: `gwsec_` and 24 random bytes in base64url. */
const SECRET_SHAPE = /^gwsec_[A-Za-z0-9_-]{32,}$/

/** Whether `secret` is one to sign with: as gw makes them, never empty or short (anyone could forge with those). */
export function isSigningSecret(secret: string): boolean {
  return SECRET_SHAPE.test(secret)
}

export function signatureHeader(secret: string, body: Buffer | string, now: number = Date.now()): string {
  // Signed with no key worth the name, a signature would prove nothing: a bug, never sent.
  if (!isSigningSecret(secret)) throw new Error('gw listen never signs with an empty or short secret')
  const t = Math.floor(now / 1000)
  const v1 = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')
  return `t=${t},v1=${v1}`
}

/** Where the signing secret is kept: one per user, as stripe listen's, so an app's setting outlives a run. */
export const signingSecretFile = (configDir: string) => join(configDir, 'listen-signing-secret')

const newSecret = () => `gwsec_${randomBytes(24).toString('base64url')}`

/**
 * The signing secret, made (random, in a 0600 file) the first time it is asked for. One that cannot
 * serve is replaced, and `said` told why, for the person whose apps check with it: an empty file (a
 * crash or a full disk between its making and its writing), a short one or one not made by gw, one
 * gw cannot read, and one others could read or change (then it may be known). A file another user
 * owns, or a folder or link of theirs on the way, is refused (NotYoursError): it is not gw's to replace.
 */
export async function signingSecret(configDir: string, said: (why: string) => void): Promise<string> {
  const file = signingSecretFile(configDir)
  const found = await readSecret(file)
  if ('secret' in found) return found.secret
  return underSecretLock(file, async () => {
    // Another gw may have mended it meanwhile: what is there now is read again.
    const again = await readSecret(file)
    if ('secret' in again) return again.secret
    const secret = newSecret()
    await (await import('../auth/config.js')).writePrivateFile(file, `${secret}\n`)
    if (again.problem !== undefined) said(`the signing secret in ${file} ${again.problem}: gw made a new one. An app that checks ${SIGNATURE_HEADER} needs it: gw listen --print-secret prints it.`)
    return secret
  })
}

/** A new signing secret in place of the old, made and kept as signingSecret makes one: from now on forwards are signed with it. */
export async function rotateSigningSecret(configDir: string): Promise<string> {
  const file = signingSecretFile(configDir)
  return underSecretLock(file, async () => {
    const secret = newSecret()
    await (await import('../auth/config.js')).writePrivateFile(file, `${secret}\n`)
    return secret
  })
}

/** The secret kept in `file`, or why there is none to use: undefined when there is no file yet. */
async function readSecret(file: string): Promise<{secret: string} | {problem?: string}> {
  const {checkOwnPath, NotYoursError, readOwnFile} = await import('../lib/own-file.js')
  // The folder first: what is wrong after that is the file's own.
  checkOwnPath(dirname(file))
  let text: string | undefined
  try {
    text = readOwnFile(file, {secret: true})
  } catch (err) {
    // Of the user's own, but others could read or change it: it may be known, and is replaced.
    if (err instanceof NotYoursError && (err.problem === 'readable' || err.problem === 'writable')) return {problem: `could be read or changed by others (mode ${err.mode.toString(8).padStart(4, '0')}), so it may be known`}
    if (err instanceof NotYoursError) throw err
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EACCES' || code === 'EPERM') return {problem: `could not be read (${code})`}
    throw err
  }
  if (text === undefined) return {}
  const secret = text.trim()
  if (secret === '') return {problem: 'was empty (a crash or a full disk while it was made?), and a forward signed with it could be forged by anyone'}
  if (!isSigningSecret(secret)) return {problem: notGwsWords(secret)}
  return {secret}
}

/** What a secret in the file that gw did not make is, as far as gw can tell: short, or another's shape. */
function notGwsWords(secret: string): string {
  const made = "gw's are gwsec_ and 32 or more letters, digits, _ or -"
  if (!secret.startsWith('gwsec_')) return `was not one gw makes (${secret.length} characters, not starting gwsec_; ${made}), and gw signs only with a random secret it made itself`
  const key = secret.slice('gwsec_'.length)
  if (/^[A-Za-z0-9_-]*$/.test(key)) return `was shorter than gw makes them (${key.length} characters after gwsec_; ${made}), and a short key makes a signature anyone could forge`
  return `was not one gw makes (it holds characters other than letters, digits, _ or - after gwsec_; ${made}), and gw signs only with a random secret it made itself`
}

/** `work` while this gw holds the secret file's lock (auth/config.ts underLock): two gw listen mending it at once keep one secret. */
async function underSecretLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const {underLock} = await import('../auth/config.js')
  return underLock(file, work)
}

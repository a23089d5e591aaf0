import {createHmac, randomBytes} from 'node:crypto'
import {join} from 'node:path'

/**
 * gw listen signs what it forwards, as the Stripe CLI does (Stripe-Signature), so an app can check
 * a delivery came through gw listen: `Gw-Signature: t=UNIX_SECONDS,v1=HEX`, v1 being the
 * HMAC-SHA256, keyed by the signing secret, of the seconds, a dot and the body as forwarded.
 */
export const SIGNATURE_HEADER = 'Gw-Signature'

export function signatureHeader(secret: string, body: Buffer | string, now: number = Date.now()): string {
  const t = Math.floor(now / 1000)
  const v1 = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')
  return `t=${t},v1=${v1}`
}

/** Where the signing secret is kept: one per user, as stripe listen's, so an app's setting outlives a run. */
export const signingSecretFile = (configDir: string) => join(configDir, 'listen-signing-secret')

/** The signing secret, made (random, in a 0600 file) the first time it is asked for. */
export async function signingSecret(configDir: string): Promise<string> {
  const {mkdir, readFile, writeFile} = await import('node:fs/promises')
  const file = signingSecretFile(configDir)
  const read = async () => (await readFile(file, 'utf8')).trim()
  try {
    return await read()
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  await mkdir(configDir, {recursive: true, mode: 0o700})
  try {
    // wx: two gw listen starting at once keep the first one's.
    await writeFile(file, `gwsec_${randomBytes(24).toString('base64url')}\n`, {mode: 0o600, flag: 'wx'})
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  return read()
}

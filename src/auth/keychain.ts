import {AuthError} from '../errors.js'
import type {TokenStore} from './config.js'

export const KEYCHAIN_SERVICE = 'gw'
const KEYCHAIN_TIMEOUT_MS = 5000

/** The part of keytar gw uses, as declared in keytar.d.ts. */
export type Keytar = typeof import('keytar')

const WAYS_OUT =
  'Either give the credentials in the environment (GW_USERNAME and GW_TOKEN, and GW_BASE_URL), or keep the token in a file only you can read: gw login --insecure-storage'

/** The OS keychain cannot be used; the message says why and the hint the two ways out. */
export class KeychainUnavailableError extends AuthError {
  constructor(reason: string, {abandonsPendingCall = false} = {}) {
    super(`The OS keychain is not available: ${reason}`, {hint: WAYS_OUT, abandonsPendingCall})
  }
}

/**
 * Tokens in the OS keychain through keytar (macOS Keychain, Windows Credential Manager, the
 * Secret Service on Linux): service `gw`, account the profile name. keytar is a native optional
 * dependency, loaded on first use; a call that hangs (a keyring waiting for a password no one
 * can type) is given up after 5 s.
 */
export function keychainStore({load, timeoutMs = KEYCHAIN_TIMEOUT_MS, os = process.platform}: {load?: () => Promise<Keytar>; timeoutMs?: number; os?: NodeJS.Platform} = {}): TokenStore {
  let keytar: Promise<Keytar> | undefined
  const call = async <T>(use: (keytar: Keytar) => Promise<T>): Promise<T> => {
    keytar ??= (load ?? (() => loadKeytar(os)))()
    const module = await keytar
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // The native call still pending would hold the process open for ever: the reporter leaves once it has said why.
        reject(new KeychainUnavailableError(`it did not answer within ${timeoutMs / 1000} s (a locked keyring waiting for its password?)`, {abandonsPendingCall: true}))
      }, timeoutMs)
    })
    try {
      return await Promise.race([use(module).catch((err: unknown) => Promise.reject(new KeychainUnavailableError(keychainFailure(err, os)))), timeout])
    } finally {
      clearTimeout(timer)
    }
  }
  return {
    location: `OS keychain (service ${KEYCHAIN_SERVICE})`,
    get: async (profile) => (await call((k) => k.getPassword(KEYCHAIN_SERVICE, profile))) ?? undefined,
    set: (profile, token) => call((k) => k.setPassword(KEYCHAIN_SERVICE, profile, token)),
    delete: async (profile) => void (await call((k) => k.deletePassword(KEYCHAIN_SERVICE, profile))),
  }
}

async function loadKeytar(os: NodeJS.Platform): Promise<Keytar> {
  try {
    const module = (await import('keytar')) as Keytar & {default?: Keytar}
    return module.default ?? module
  } catch (err) {
    throw new KeychainUnavailableError(keytarFailure(err, os))
  }
}

/** Why npm leaves keytar out of an install, on each system's terms: its native part has no prebuilt binary there, and cannot be built without... */
const WHY_LEFT_OUT: Partial<Record<NodeJS.Platform, string>> = {
  darwin: "there is no prebuilt binary of it for this Mac's Node and it cannot be built without Xcode's command line tools (xcode-select --install)",
  win32: 'there is no prebuilt binary of it for this Windows and Node (Windows on ARM has none) and it cannot be built without the C++ build tools of Visual Studio',
}

/** Why keytar would not load: left out of the install (it is optional) or of the executable, or present but its native part did not load. */
export function keytarFailure(err: unknown, os: NodeJS.Platform = process.platform): string {
  const {code, message = String(err), path} = (err ?? {}) as {code?: string; message?: string; path?: string}
  // Set by gw's single executable (bin/sea.js), which finds keytar's native module beside itself.
  if (code === 'ERR_GW_KEYTAR_NOT_BESIDE') {
    return `keytar.node, the native module gw reaches it with, is not beside the gw executable (${path}): this platform's build of gw has none, or gw was copied without it`
  }
  // import() says ERR_MODULE_NOT_FOUND, require() (the bundle, scripts/bundle.js) MODULE_NOT_FOUND.
  if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && /'keytar'/.test(message)) {
    const why = WHY_LEFT_OUT[os] ?? 'its native part cannot build, on Linux for want of libsecret-1-dev'
    return `keytar, the optional module gw reaches it with, is not installed (npm leaves it out when ${why}, and with --omit=optional)`
  }
  return `keytar, the module gw reaches it with, did not load (${message.split('\n')[0]})`
}

/** Turns what libsecret, macOS's Keychain or Windows' Credential Manager said into the reason a person can act on, on that system's terms. */
export function keychainFailure(err: unknown, os: NodeJS.Platform = process.platform): string {
  const message = err instanceof Error ? err.message : String(err)
  if (os === 'darwin') {
    if (/interaction is not allowed/i.test(message)) return `the login keychain is locked and cannot ask for its password here (an SSH session?): unlock it with security unlock-keychain, and try again (${message})`
    if (/could not be found|no default keychain/i.test(message)) return `this user has no login keychain to keep the token in (${message})`
  } else if (os === 'win32') {
    if (/logon session does not exist/i.test(message)) return `Windows Credential Manager cannot be reached from this logon session (a service, or an SSH session without your profile loaded) (${message})`
  } else {
    if (/autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|dbus/i.test(message) && !/secrets/i.test(message)) {
      return `there is no D-Bus session to reach the Secret Service through (${message})`
    }
    if (/org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service/i.test(message)) {
      return `no Secret Service is running (install and start gnome-keyring or KWallet) (${message})`
    }
  }
  if (/locked/i.test(message)) return `the keyring is locked; unlock it and try again (${message})`
  return message
}

import {describe, expect, it} from 'vitest'
import {keychainFailure, keychainStore, KeychainUnavailableError, type Keytar, keytarFailure} from '../../../src/auth/keychain.js'

function memoryKeytar(): Keytar & {entries: Map<string, string>} {
  const entries = new Map<string, string>()
  return {
    entries,
    getPassword: async (service, account) => entries.get(`${service}/${account}`) ?? null,
    setPassword: async (service, account, password) => void entries.set(`${service}/${account}`, password),
    deletePassword: async (service, account) => entries.delete(`${service}/${account}`),
  }
}

describe('keychainStore', () => {
  it('keeps tokens under service gw, account the profile name', async () => {
    const keytar = memoryKeytar()
    const store = keychainStore({load: async () => keytar})
    await store.set('shop', 's3cret')
    expect(keytar.entries.get('gw/shop')).toBe('s3cret')
    expect(await store.get('shop')).toBe('s3cret')
    await store.delete('shop')
    expect(await store.get('shop')).toBeUndefined()
  })

  it('gives up on a keychain that does not answer, saying so and the two ways out', async () => {
    const hanging: Keytar = {getPassword: () => new Promise(() => {}), setPassword: () => new Promise(() => {}), deletePassword: () => new Promise(() => {})}
    const store = keychainStore({load: async () => hanging, timeoutMs: 50})
    await expect(store.get('shop')).rejects.toMatchObject({
      exitCode: 4,
      message: 'The OS keychain is not available: it did not answer within 0.05 s (a locked keyring waiting for its password?)',
      hint: 'Either give the credentials in the environment (GW_USERNAME and GW_TOKEN, and GW_BASE_URL), or keep the token in a file only you can read: gw login --insecure-storage',
      // The reporter leaves once it has said so: the pending native call would hold the process open.
      abandonsPendingCall: true,
    })
  })

  it('says when keytar itself cannot be loaded, and tells an absent keytar from one that did not build or was not beside the executable', async () => {
    const absent = Object.assign(new Error("Cannot find package 'keytar' imported from /usr/lib/node_modules/gw/dist/chunks/keychain-X.js"), {code: 'ERR_MODULE_NOT_FOUND'})
    expect(keytarFailure(absent, 'linux')).toBe(
      'keytar, the optional module gw reaches it with, is not installed (npm leaves it out when its native part cannot build, on Linux for want of libsecret-1-dev, and with --omit=optional)',
    )
    const unbuilt = Object.assign(new Error("Cannot find module '../build/Release/keytar.node'\nRequire stack:\n- /x/node_modules/keytar/lib/keytar.js"), {code: 'MODULE_NOT_FOUND'})
    expect(keytarFailure(unbuilt)).toBe("keytar, the module gw reaches it with, did not load (Cannot find module '../build/Release/keytar.node')")
    const notBeside = Object.assign(new Error("Cannot find module 'keytar': there is no /opt/gw/keytar.node"), {code: 'ERR_GW_KEYTAR_NOT_BESIDE', path: '/opt/gw/keytar.node'})
    expect(keytarFailure(notBeside)).toBe(
      "keytar.node, the native module gw reaches it with, is not beside the gw executable (/opt/gw/keytar.node): this platform's build of gw has none, or gw was copied without it",
    )
    const store = keychainStore({load: () => Promise.reject(new KeychainUnavailableError(keytarFailure(absent)))})
    await expect(store.set('shop', 't')).rejects.toMatchObject({exitCode: 4, message: `The OS keychain is not available: ${keytarFailure(absent)}`})
  })

  it('turns what the platform said into a reason a person can act on', async () => {
    const failing = (message: string): Keytar => ({getPassword: () => Promise.reject(new Error(message)), setPassword: () => Promise.reject(new Error(message)), deletePassword: () => Promise.reject(new Error(message))})
    const cases: [string, string][] = [
      ['Cannot autolaunch D-Bus without X11 $DISPLAY', 'there is no D-Bus session to reach the Secret Service through'],
      ['The name org.freedesktop.secrets was not provided by any .service files', 'no Secret Service is running (install and start gnome-keyring or KWallet)'],
      ['Cannot create an item in a locked collection', 'the keyring is locked; unlock it and try again'],
    ]
    for (const [said, reason] of cases) {
      expect(keychainFailure(new Error(said), 'linux')).toBe(`${reason} (${said})`)
      await expect(keychainStore({load: async () => failing(said), os: 'linux'}).get('x')).rejects.toMatchObject({message: `The OS keychain is not available: ${reason} (${said})`})
    }
  })

  // Where keytar cannot work, said on that system's terms: the system handed to it.
  it("says what macOS's Keychain and Windows' Credential Manager said on their terms, never a Secret Service's", async () => {
    const cases: [NodeJS.Platform, string, string][] = [
      ['darwin', 'User interaction is not allowed.', 'the login keychain is locked and cannot ask for its password here (an SSH session?): unlock it with security unlock-keychain, and try again'],
      ['darwin', 'The specified keychain could not be found.', 'this user has no login keychain to keep the token in'],
      ['win32', 'A specified logon session does not exist. It may already have been terminated.', 'Windows Credential Manager cannot be reached from this logon session (a service, or an SSH session without your profile loaded)'],
    ]
    for (const [os, said, reason] of cases) {
      expect(keychainFailure(new Error(said), os)).toBe(`${reason} (${said})`)
      await expect(keychainStore({load: async () => ({getPassword: () => Promise.reject(new Error(said))}) as unknown as Keytar, os}).get('x')).rejects.toMatchObject({message: `The OS keychain is not available: ${reason} (${said})`})
    }
    // A D-Bus word in a Mac's message is not a D-Bus session missing.
    expect(keychainFailure(new Error('dbus'), 'darwin')).toBe('dbus')
  })

  it('says why npm left keytar out on each system: libsecret on Linux, Xcode on macOS, a prebuilt binary or Visual Studio on Windows', () => {
    const absent = Object.assign(new Error("Cannot find package 'keytar' imported from /gw/dist/gw.cjs"), {code: 'ERR_MODULE_NOT_FOUND'})
    const left = (why: string) => `keytar, the optional module gw reaches it with, is not installed (npm leaves it out when ${why}, and with --omit=optional)`
    expect(keytarFailure(absent, 'linux')).toBe(left('its native part cannot build, on Linux for want of libsecret-1-dev'))
    expect(keytarFailure(absent, 'darwin')).toBe(left("there is no prebuilt binary of it for this Mac's Node and it cannot be built without Xcode's command line tools (xcode-select --install)"))
    expect(keytarFailure(absent, 'win32')).toBe(left('there is no prebuilt binary of it for this Windows and Node (Windows on ARM has none) and it cannot be built without the C++ build tools of Visual Studio'))
  })
})

import {join} from 'node:path'
import {readOwnFile} from '../lib/own-file.js'
import {type TokenStore, type TokenStorage, underLock, writePrivateFile} from './config.js'

/** Opens the store a profile's token lives in; the keychain (and keytar) only when asked for. */
export type TokenStores = (storage: TokenStorage) => Promise<TokenStore>

/** `gw login --insecure-storage`: the user chose a 0600 file over the keychain. */
export const insecureCredentialsFile = (configDir: string) => join(configDir, 'insecure-credentials.json')

/** What gw says wherever a profile's token is read from its plain file: at login, and on every command that uses it. */
export function plainFileWarning(profile: string, file: string): string {
  return `the token of profile ${profile} is in a plain file, ${file}: anyone who can read it as you can use it. gw says so on every command that uses it; gw login --profile ${profile} without --insecure-storage moves it into the OS keychain.`
}

/** The stores of profiles' tokens; the keychain's failures said on the terms of the system `os` (Keychain, Credential Manager, Secret Service). */
export function tokenStores(configDir: string, os: NodeJS.Platform = process.platform): TokenStores {
  return async (storage) => {
    if (storage === 'file') return fileTokenStore(insecureCredentialsFile(configDir))
    const {keychainStore} = await import('./keychain.js')
    return keychainStore({os})
  }
}

/** Tokens by profile name in a JSON file only its owner can read (mode 0600, written atomically). */
export function fileTokenStore(path: string): TokenStore {
  const read = async (): Promise<Record<string, string>> => {
    // Read at once, as config.json is (config.ts); refused when it is not the user's alone (0600): a token others can read is known.
    const text = readOwnFile(path, {secret: true})
    return text === undefined ? {} : (JSON.parse(text) as Record<string, string>)
  }
  return {
    location: path,
    get: async (profile) => (await read())[profile],
    async set(profile, token) {
      await underLock(path, async () => writePrivateFile(path, JSON.stringify({...(await read()), [profile]: token}, null, 2) + '\n'))
    },
    async delete(profile) {
      await underLock(path, async () => {
        const tokens = await read()
        delete tokens[profile]
        if (Object.keys(tokens).length === 0) await (await import('node:fs/promises')).rm(path, {force: true})
        else await writePrivateFile(path, JSON.stringify(tokens, null, 2) + '\n')
      })
    },
  }
}

import {readFile, rm} from 'node:fs/promises'
import {join} from 'node:path'
import {type TokenStorage, writePrivateFile} from './config.js'

/** Where API tokens live. Only this interface is used elsewhere, so where a token lives is one decision. */
export interface TokenStore {
  /** Says where, for gw status and warnings: the keychain entry or the file's path. */
  readonly location: string
  get(profile: string): Promise<string | undefined>
  set(profile: string, token: string): Promise<void>
  delete(profile: string): Promise<void>
}

/** Opens the store a profile's token lives in; the keychain (and keytar) only when asked for. */
export type TokenStores = (storage: TokenStorage) => Promise<TokenStore>

/** The foundation's interim store: read once, moved into the keychain, then erased. */
export const legacyCredentialsFile = (configDir: string) => join(configDir, 'credentials.json')

/** `gw login --insecure-storage`: the user chose a 0600 file over the keychain. */
export const insecureCredentialsFile = (configDir: string) => join(configDir, 'insecure-credentials.json')

export function tokenStores(configDir: string): TokenStores {
  return async (storage) => {
    if (storage === 'file') return fileTokenStore(insecureCredentialsFile(configDir))
    const {keychainStore, migrateIntoKeychain} = await import('./keychain.js')
    const keychain = keychainStore()
    await migrateIntoKeychain(fileTokenStore(legacyCredentialsFile(configDir)), keychain)
    return keychain
  }
}

/** Tokens by profile name in a JSON file only its owner can read (mode 0600, written atomically). */
export function fileTokenStore(path: string): TokenStore & {all(): Promise<Record<string, string>>} {
  const read = async (): Promise<Record<string, string>> => {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as Record<string, string>
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw err
    }
  }
  return {
    location: path,
    all: read,
    get: async (profile) => (await read())[profile],
    async set(profile, token) {
      await writePrivateFile(path, JSON.stringify({...(await read()), [profile]: token}, null, 2) + '\n')
    },
    async delete(profile) {
      const tokens = await read()
      delete tokens[profile]
      if (Object.keys(tokens).length === 0) await rm(path, {force: true})
      else await writePrivateFile(path, JSON.stringify(tokens, null, 2) + '\n')
    },
  }
}

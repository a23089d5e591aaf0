import {readFile, rm} from 'node:fs/promises'
import {join} from 'node:path'
import {writePrivateFile} from './config.js'

/** Where API tokens live. Only this interface is used elsewhere, so the keychain can replace the file. */
export interface TokenStore {
  readonly location: string
  get(profile: string): Promise<string | undefined>
  set(profile: string, token: string): Promise<void>
  delete(profile: string): Promise<void>
}

/** Interim store: a 0600 JSON file beside config.json, until tokens move to the OS keychain. */
export function fileTokenStore(configDir: string): TokenStore {
  const path = join(configDir, 'credentials.json')
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

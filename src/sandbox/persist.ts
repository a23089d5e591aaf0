import {mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {dirname} from 'node:path'
import {emptyState, type StoreState} from './store.js'

const FORMAT_VERSION = 1

interface StateFile extends StoreState {
  version: number
}

/** The saved state, or an empty one when the file does not exist yet. */
export function loadState(file: string): StoreState {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState()
    throw error
  }
  const parsed = parseStateFile(text)
  if (!parsed) throw new Error(`${file} is not a gw sandbox state file (version ${FORMAT_VERSION}); move it away or pick another file`)
  const {version: _version, ...state} = parsed
  return state
}

function parseStateFile(text: string): StateFile | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<StateFile> | null
    const isState = parsed?.version === FORMAT_VERSION && typeof parsed.merchants === 'object' && parsed.merchants !== null
    return isState ? (parsed as StateFile) : undefined
  } catch {
    return undefined
  }
}

/** Written to a temporary file and renamed over the old one, so a crash never leaves half a file. */
export function saveState(file: string, state: StoreState): void {
  mkdirSync(dirname(file), {recursive: true})
  const temporary = `${file}.${process.pid}.tmp`
  const content: StateFile = {version: FORMAT_VERSION, ...state}
  writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`)
  renameSync(temporary, file)
}

import {Flags} from '@oclif/core'
import {UsageError} from '../errors.js'
import type {MerchantCredentials} from '../sandbox/domain/ids.js'
import type {Io} from '../output/io.js'
import {readGivenSecret} from './secret-file.js'
import {credentialPair} from './validate.js'

// `gw sandbox start --merchant`: USER:TOKEN, or - and @FILE, which read them one a line from stdin
// or a file, so that no token need be in argv (ps shows a foreground gateway's to every user, twice
// through the relaunch).

/** One --merchant as given: a pair, or where to read pairs from. */
export type MerchantSource = MerchantCredentials | {from: 'stdin'} | {from: 'file'; file: string}

export const merchant = Flags.custom<MerchantSource>({
  description: 'another merchant as USER:TOKEN (repeatable); - reads them from stdin and @FILE from a file, one USER:TOKEN a line, so no token is in argv',
  multiple: true,
  parse: async (input) => (input === '-' ? {from: 'stdin'} : input.startsWith('@') ? {from: 'file', file: input.slice(1)} : parseMerchant(input, '--merchant')),
})

/** The merchants the flags give, those from stdin or files read and checked. */
export async function readMerchants(sources: readonly MerchantSource[] | undefined, io: Io): Promise<MerchantCredentials[] | undefined> {
  if (sources === undefined) return undefined
  if (sources.filter((source) => 'from' in source && source.from === 'stdin').length > 1) throw new UsageError('--merchant - is given twice: stdin is read once', 'Put every USER:TOKEN on its own line of the one stdin.')
  const merchants: MerchantCredentials[] = []
  for (const source of sources) {
    if (!('from' in source)) merchants.push(source)
    else if (source.from === 'stdin') merchants.push(...lines(await fromStdin(io), '--merchant - (stdin)'))
    else merchants.push(...lines(fromFile(source.file), `--merchant @${source.file}`))
  }
  const seen = new Set<string>()
  for (const {username} of merchants) {
    if (seen.has(username)) throw new UsageError(`--merchant ${username} is given twice`, 'Give each merchant once.')
    seen.add(username)
  }
  return merchants
}

async function fromStdin(io: Io): Promise<string> {
  if (io.isStdinTTY) throw new UsageError('--merchant - reads USER:TOKEN lines from stdin, but stdin is a terminal', 'Pipe them in from a file or a secret store: gw sandbox start --merchant - < merchants.txt')
  return io.readStdin()
}

/** A file of merchants holds their tokens: the user's alone, as --auth-file's is (cli/secret-file.ts). */
function fromFile(file: string): string {
  return readGivenSecret(`--merchant @${file}`, file, "(umask 077; printf '%s\\n' 'ACME:s3cret' > merchants.txt)")
}

/** USER:TOKEN a line; blank lines and lines starting with # are skipped. */
function lines(text: string, source: string): MerchantCredentials[] {
  const merchants = text
    .split(/\r?\n/)
    .map((line, index) => ({line: line.trim(), number: index + 1}))
    .filter(({line}) => line !== '' && !line.startsWith('#'))
    .map(({line, number}) => parseMerchant(line, `${source}, line ${number}`))
  if (merchants.length === 0) throw new UsageError(`${source} holds no USER:TOKEN line`, 'Give one merchant a line, USER:TOKEN.')
  return merchants
}

function parseMerchant(input: string, where: string): MerchantCredentials {
  const pair = credentialPair(input)
  // A line read from a file or stdin is not echoed: it may be a token alone.
  if (!pair) throw new UsageError(`${where} must be USER:TOKEN${where === '--merchant' ? `, got "${input}"` : ''}`, 'For example --merchant ACME:s3cret, or --merchant - to read USER:TOKEN lines from stdin.')
  if (pair.username === 'TEST') throw new UsageError(`${where === '--merchant' ? where : `${where}: merchant`} TEST already exists (TEST:TEST)`, 'Pick another username.')
  return {username: pair.username, token: pair.secret}
}

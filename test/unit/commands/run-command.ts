import {Config} from '@oclif/core'
import {join} from 'node:path'
import type {GatewayClient} from '../../../src/api/client.js'
import {MACHINE_CALENDAR} from '../../../src/lib/calendar.js'
import type {Target} from '../../../src/auth/resolve.js'
import {createFactory} from '../../../src/cli/factory.js'
import type {GwCommand} from '../../../src/cli/gw-command.js'
import {grammarOf, readCommandLine} from '../../../src/cli/startup/argv.js'
import {type TestIo, testIo} from '../../test-io.js'

const root = join(import.meta.dirname, '..', '..', '..')
let config: Promise<Config> | undefined

/** A sandbox profile, its token read already: no config file, no keychain. */
export const sandboxTarget: Target & {token: string} = {
  baseUrl: 'http://gateway.test',
  username: 'TEST',
  token: 'TEST',
  environment: 'sandbox',
  source: 'environment',
  secretStorage: 'environment',
  secretLocation: 'GW_TOKEN',
}

/** A live profile, for what a live profile refuses or asks. */
export const liveTarget: Target & {token: string} = {...sandboxTarget, environment: 'live', profileName: 'shop-live', source: 'active', secretStorage: 'keychain', secretLocation: 'gw/shop-live'}

export interface Ran {
  /** The exit status the command set (process.exitCode), 0 when it set none. */
  code: number
  stdout: string
  stderr: string
  io: TestIo
}

/** A command class as oclif loads it: its columns, and runWith to run it in this process. */
export type CommandClass<I> = Pick<typeof GwCommand, 'columns' | 'runWith'> & (new (argv: string[], config: Config) => GwCommand<I>)

export interface RunOptions<I> {
  /** The command as typed (`purchase create`), for its messages. */
  name: string
  client?: GatewayClient
  tty?: boolean
  target?: Target & {token?: string}
  io?: TestIo
  /** Run in place of the command's operation (gh's runF), given the input its parse made. */
  runF?: (input: I) => unknown
}

/**
 * Runs a command in this process: oclif's parse and gw's run, render and report, with a Factory
 * whose Io is a buffer and whose client is the fake given. No process is spawned.
 */
export async function runCommand<I>(command: CommandClass<I>, typed: string[], {name, client, tty = false, target = sandboxTarget, io = testIo({tty}), runF}: RunOptions<I>): Promise<Ran> {
  config ??= Config.load({root})
  const argv = await asOclifGetsIt(command, name, typed)
  const factory = createFactory(
    {commandName: name, columns: command.columns, argv, flags: grammarOf(command), env: {}, config: await config},
    {
      io,
      target: async () => target,
      credentials: async () => ({...target, token: target.token ?? 'TEST'}),
      client: async () => client ?? Promise.reject(new Error('this test gave no client')),
      // Named days in this process's tests are this machine's: no local gateway says its today.
      gatewayTime: async () => ({now: new Date(), calendar: MACHINE_CALENDAR}),
    },
  )
  const before = process.exitCode
  process.exitCode = undefined
  try {
    await command.runWith(argv, await config, factory, runF)
    return {code: Number(process.exitCode ?? 0), stdout: io.stdout(), stderr: io.stderr(), io}
  } finally {
    process.exitCode = before
  }
}

/**
 * The command's argv as the built gw hands it to oclif: read by the same pre-parser (bin/run.js's
 * placeGlobalFlags), so that `--json id,amount` reaches a command here as it does there.
 */
async function asOclifGetsIt<I>(command: CommandClass<I>, name: string, typed: string[]): Promise<string[]> {
  const words = name.split(' ')
  const id = words.join(':')
  const line = await readCommandLine([...words, ...typed], {[id]: command})
  if (line.id !== id) throw new Error(`${name} ${typed.join(' ')} does not name gw ${name}`)
  return line.argv.slice(words.length)
}

export interface Parsed<I> extends Ran {
  /** The input the command's operation would have got; undefined when the parse failed. */
  input?: I
}

/**
 * A command's parse alone (gh's runF): argv to the input its operation would get, the operation
 * not run. No client is given, so nothing can be sent; a usage error is reported as gw reports
 * it, its message on stderr and exit 2.
 */
export async function parseCommand<I>(command: CommandClass<I>, argv: string[], options: Omit<RunOptions<I>, 'client' | 'runF'>): Promise<Parsed<I>> {
  let input: I | undefined
  const ran = await runCommand(command, argv, {...options, runF: (given) => void (input = given)})
  return {...ran, input}
}

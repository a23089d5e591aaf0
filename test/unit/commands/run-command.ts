import {Config} from '@oclif/core'
import {join} from 'node:path'
import type {GatewayClient} from '../../../src/api/client.js'
import type {Target} from '../../../src/auth/resolve.js'
import {createFactory} from '../../../src/cli/factory.js'
import type {GwCommand} from '../../../src/cli/gw-command.js'
import {type TestIo, testIo} from '../../../src/output/io.js'

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

export interface Ran {
  /** The exit status the command set (process.exitCode), 0 when it set none. */
  code: number
  stdout: string
  stderr: string
  io: TestIo
}

/**
 * Runs a command in this process (gh's runF): oclif's parse and gw's run, render and report, with
 * a Factory whose Io is a buffer and whose client is the fake given. No process is spawned.
 */
export async function runCommand<I>(
  command: Pick<typeof GwCommand, 'columns' | 'runWith'> & (new (argv: string[], config: Config) => GwCommand<I>),
  argv: string[],
  {name, client, tty = false, target = sandboxTarget, io = testIo({tty})}: {name: string; client?: GatewayClient; tty?: boolean; target?: Target & {token?: string}; io?: TestIo},
): Promise<Ran> {
  config ??= Config.load({root})
  const factory = createFactory(
    {commandName: name, columns: command.columns, argv, env: {}, config: await config},
    {
      io,
      target: async () => target,
      credentials: async () => ({...target, token: target.token ?? 'TEST'}),
      client: async () => client ?? Promise.reject(new Error('this test gave no client')),
    },
  )
  const before = process.exitCode
  process.exitCode = undefined
  try {
    await command.runWith(argv, await config, factory)
    return {code: Number(process.exitCode ?? 0), stdout: io.stdout(), stderr: io.stderr(), io}
  } finally {
    process.exitCode = before
  }
}

import {Command, Errors, Flags, type Interfaces} from '@oclif/core'
import type {GatewayClient} from './api/client.js'
import type {ProxySettings} from './api/proxy.js'
import type {Column} from './api/schemas/columns.js'
import type {Credentials, Target} from './auth/resolve.js'
import type {TokenStores} from './auth/token-store.js'
import type {CardDetails, CardFlags} from './card-input.js'
import {GwError, UsageError} from './errors.js'
import {closest} from './help/suggest.js'
import {processIo, type Io} from './output/io.js'
import type {Prompter} from './output/prompt.js'

type GwRecord = Record<string, unknown>
// The shapes oclif's parse is generic over (not exported by @oclif/core).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type FlagOutput = {[name: string]: any}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ArgOutput = {[name: string]: any}

interface GlobalFlags {
  profile?: string
  json: boolean
  verbose: boolean
  yes: boolean
  'no-input': boolean
}

/**
 * The base of every gw command (style.md §2–3): global flags, lazily built client and Io, and
 * the one place where a result is rendered and an error becomes output and an exit code.
 * A command's run() parses, makes one client call and returns the gateway's record.
 */
export abstract class GwCommand extends Command {
  static override baseFlags = {
    profile: Flags.string({description: 'profile to use instead of the active one', helpGroup: 'GLOBAL'}),
    json: Flags.boolean({description: "print the gateway's record as JSON", helpGroup: 'GLOBAL'}),
    verbose: Flags.boolean({description: 'log each request and response to stderr, secrets redacted', helpGroup: 'GLOBAL'}),
    yes: Flags.boolean({description: 'answer yes to confirmations', helpGroup: 'GLOBAL'}),
    'no-input': Flags.boolean({description: 'never prompt; fail instead when something is missing', helpGroup: 'GLOBAL'}),
  }

  /** How a table shows this command's record. */
  static columns: Column[] = []

  /** Changes something at the gateway: a read-only profile refuses it before any request. */
  static writes = false

  /**
   * On a live profile, what the user types to confirm: the amount for money (from --amount and
   * --currency), the id for deletes (the `id` argument or flag).
   */
  static confirmWith?: 'amount' | 'id'

  private globals?: GlobalFlags
  private parsedInput?: {flags: FlagOutput; args: ArgOutput}
  private ioInstance?: Io
  private clientInstance?: GatewayClient
  private targetInstance?: Promise<Target & {token?: string}>
  private prompterInstance?: Promise<Prompter>

  protected get io(): Io {
    this.ioInstance ??= processIo(process.env, {noInput: this.globals?.['no-input'] ?? false})
    return this.ioInstance
  }

  protected get json(): boolean {
    return this.globals?.json ?? this.argv.includes('--json')
  }

  protected override async parse<F extends FlagOutput, B extends FlagOutput, A extends ArgOutput>(
    options?: Interfaces.Input<F, B, A>,
    argv?: string[],
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    const parsed = await super.parse(options, argv)
    this.globals = parsed.flags as unknown as GlobalFlags
    this.parsedInput = {flags: parsed.flags, args: parsed.args}
    return parsed
  }

  /** As people type it: `purchase create`. */
  protected get commandName(): string {
    return (this.id ?? '').replaceAll(':', ' ')
  }

  protected tokenStores(): Promise<TokenStores> {
    return import('./auth/token-store.js').then(({tokenStores}) => tokenStores(this.config.configDir))
  }

  protected prompter(): Promise<Prompter> {
    this.prompterInstance ??= import('./output/prompt.js').then(({terminalPrompter}) => terminalPrompter())
    return this.prompterInstance
  }

  /**
   * The gateway and user this command works with, token not read yet. Resolving it is where a
   * read-only profile refuses a command that writes, and where a live one says LIVE.
   */
  protected target(): Promise<Target & {token?: string}> {
    this.targetInstance ??= (async () => {
      const {resolveTarget} = await import('./auth/resolve.js')
      const target = await resolveTarget({profileFlag: this.globals?.profile, env: process.env, configDir: this.config.configDir})
      const writes = (this.ctor as typeof GwCommand).writes
      const live = target.environment === 'live'
      if (!writes && !live) return target
      const {liveMarker, refuseWhenReadOnly} = await import('./live-safety.js')
      if (writes) refuseWhenReadOnly(target, this.commandName)
      if (live && this.io.isStderrTTY) {
        const {paint} = await import('./output/colors.js')
        this.io.err(paint(this.io.errColor, 'red', liveMarker(target)) + '\n')
      }
      return target
    })()
    return this.targetInstance
  }

  protected async credentials(): Promise<Credentials> {
    const {withToken} = await import('./auth/resolve.js')
    const credentials = await withToken(await this.target(), await this.tokenStores())
    if (credentials.secretStorage === 'file') {
      this.io.err(`Warning: the token of profile ${credentials.profileName} is in a plain file, ${credentials.secretLocation} (gw login --insecure-storage); anyone who can read it can use it.\n`)
    }
    return credentials
  }

  /** A card given in full: from stdin (--card -), the flags, or asked for; on a live profile never from argv. */
  protected async card(flags: CardFlags, {holderOptional = false} = {}): Promise<CardDetails | undefined> {
    const target = await this.target()
    const {readCard} = await import('./card-input.js')
    return readCard(flags, {live: target.environment === 'live', io: this.io, prompter: () => this.prompter(), commandId: this.commandName, holderOptional})
  }

  /** The API client for the profile in force, built on first use; a live profile confirms first. */
  protected async client(): Promise<GatewayClient> {
    if (this.clientInstance) return this.clientInstance
    const credentials = await this.credentials()
    await this.confirmIfLive(credentials)
    this.clientInstance = await this.clientFor(credentials)
    return this.clientInstance
  }

  /** HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the environment, checked; undefined when no proxy is set. */
  protected async proxy(): Promise<ProxySettings | undefined> {
    const {proxySettings} = await import('./api/proxy.js')
    return proxySettings(process.env)
  }

  /** A client for the given credentials: the profile's, or those gw login is about to save. */
  protected async clientFor(credentials: Pick<Credentials, 'baseUrl' | 'username' | 'token' | 'connectTimeoutMs' | 'responseTimeoutMs'>): Promise<GatewayClient> {
    const {GatewayClient} = await import('./api/client.js')
    const {paint} = await import('./output/colors.js')
    const io = this.io
    return new GatewayClient({
      baseUrl: credentials.baseUrl,
      username: credentials.username,
      token: credentials.token,
      userAgent: `gw/${this.config.version} node/${process.versions.node}`,
      connectTimeoutMs: credentials.connectTimeoutMs,
      responseTimeoutMs: credentials.responseTimeoutMs,
      proxy: await this.proxy(),
      log: this.globals?.verbose ? (line) => io.err(paint(io.errColor, 'dim', line) + '\n') : undefined,
      notice: (line) => io.err(paint(io.errColor, 'yellow', line) + '\n'),
    })
  }

  private async confirmIfLive(target: Target): Promise<void> {
    const kind = (this.ctor as typeof GwCommand).confirmWith
    if (!kind || target.environment !== 'live') return
    const {confirmLive, confirmation} = await import('./live-safety.js')
    const {flags = {}, args = {}} = this.parsedInput ?? {}
    const expected = confirmation(kind, {amount: flags.amount, currency: flags.currency, id: args.id ?? flags.id})
    await confirmLive({commandId: this.commandName, kind, expected, yes: this.globals?.yes ?? false, io: this.io, prompter: () => this.prompter()})
  }

  /**
   * Looks several ids up one after another, printing each record as it arrives; a failed id is
   * reported and the rest still run. The exit code is the worst one any id had (design.md §4).
   */
  protected async each(ids: string[], batch: boolean, fetchOne: (id: string) => Promise<GwRecord>): Promise<GwRecord | undefined> {
    if (!batch && ids.length === 1) return fetchOne(ids[0]!)
    const {recordStream, renderError} = await import('./output/render.js')
    const write = recordStream(this.io, (this.ctor as typeof GwCommand).columns, {json: this.json})
    let worst: GwError | undefined
    let failed = 0
    for (const id of ids) {
      try {
        await write(await fetchOne(id))
      } catch (err) {
        const error = toGwError(err)
        renderError(this.io, error, {json: this.json, subject: id})
        failed++
        if (!worst || error.exitCode > worst.exitCode) worst = error
      }
    }
    if (worst) throw new BatchFailure(`${failed} of ${ids.length} look-ups failed`, worst)
    return undefined
  }

  protected override async _run<T>(): Promise<T> {
    let result: unknown
    const onInterrupt = () => this.interrupted()
    process.once('SIGINT', onInterrupt)
    try {
      await this.init()
      result = await this.run()
      if (result !== undefined && result !== null) await this.render(result as GwRecord | GwRecord[])
    } catch (err) {
      await this.report(err)
    } finally {
      process.off('SIGINT', onInterrupt)
      await this.clientInstance?.close()
    }
    return result as T
  }

  /** A record prints as a two-column table, a list (an array) as a table with a row per record. */
  protected async render(result: GwRecord | GwRecord[]): Promise<void> {
    const {renderList, renderRecord} = await import('./output/render.js')
    const columns = (this.ctor as typeof GwCommand).columns
    if (Array.isArray(result)) await renderList(this.io, result, columns, {json: this.json})
    else await renderRecord(this.io, result, columns, {json: this.json})
  }

  /** Ctrl-C: exit 130, and if money was in flight, say exactly how to find out what happened. */
  protected interrupted(): void {
    const inFlight = this.clientInstance?.inFlight
    let text = 'Interrupted.\n'
    if (inFlight) {
      text += `The ${inFlight.noun} with reference ${inFlight.reference} may have reached the gateway. Check before sending it again: ${inFlight.getCommand} ${inFlight.reference}\n`
    }
    this.io.err(text)
    process.exit(130)
  }

  private async report(err: unknown): Promise<void> {
    if (err instanceof Errors.ExitError) throw err
    const error = toGwError(err, {name: `${this.config.bin} ${this.commandName}`, flags: Object.keys((this.ctor as typeof GwCommand).flags ?? {})})
    const {renderError, renderRecord} = await import('./output/render.js')
    // A decline is a processed transaction: its record is the result, on stdout like any other.
    if (error.record) await renderRecord(this.io, error.record, (this.ctor as typeof GwCommand).columns, {json: this.json})
    if (error instanceof BatchFailure) renderError(this.io, error, {json: false})
    else renderError(this.io, error, {json: this.json})
    if (error.kind === 'unexpected' && this.globals?.verbose && err instanceof Error && err.stack) this.io.err(err.stack + '\n')
    process.exitCode = error.exitCode
  }
}

/** Several look-ups, some failed: exits with the worst code among them. */
class BatchFailure extends GwError {
  constructor(message: string, worst: GwError) {
    super(worst.kind, worst.exitCode, message)
  }
}

/** oclif's parse errors are usage errors (exit 2); anything that is not a GwError is a bug (exit 1). */
export function toGwError(err: unknown, command?: {name: string; flags: string[]}): GwError {
  if (err instanceof GwError) {
    // oclif decorates errors thrown by a flag's parse; the message already names the flag.
    err.message = withoutOclifDecoration(err.message)
    return err
  }
  if (err instanceof Errors.CLIError) return usageErrorFromOclif(err, command)
  const message = err instanceof Error ? err.message : String(err)
  return new GwError('unexpected', 1, `Unexpected failure: ${message}`, {hint: 'Run again with --verbose for details.'})
}

/**
 * A parse error names the command as typed (`See gw purchase get --help`); an unknown flag is named
 * without any value glued to it (it may be a card number) and with the closest real flag.
 */
function usageErrorFromOclif(err: Errors.CLIError, command?: {name: string; flags: string[]}): UsageError {
  const help = `See ${command?.name ?? 'gw COMMAND'} --help for the flags and examples.`
  const unknown = (err as {flags?: unknown}).flags
  if (Array.isArray(unknown) && unknown.length > 0) {
    const names = unknown.map((flag) => String(flag).replace(/=.*/s, ''))
    const suggestion = command && closest(names[0]!.replace(/^-+/, ''), command.flags)
    const message = `unknown flag${names.length === 1 ? '' : 's'}: ${names.join(', ')}`
    return new UsageError(message, suggestion ? `Did you mean --${suggestion}? ${help}` : help)
  }
  return new UsageError(withoutOclifDecoration(err.message), help)
}

function withoutOclifDecoration(message: string): string {
  return message.replace(/^Parsing --[\w-]+ \n\t/, '').replace(/\nSee more help with --help$/, '')
}

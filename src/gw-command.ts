import {Command, Errors, Flags, type Interfaces} from '@oclif/core'
import type {GatewayClient} from './api/client.js'
import type {ProxySettings} from './api/proxy.js'
import type {Credentials, Target} from './auth/resolve.js'
import type {TokenStores} from './auth/token-store.js'
import type {CardDetails, CardFlags} from './card-input.js'
import type {BatchFlags} from './batch/command.js'
import type {BatchKind} from './batch/kinds.js'
import {GwError, InterruptedError, STOP_SIGNALS, type StopSignal, UsageError, WriteError} from './errors.js'
import type {Deps, GwRecord} from './operations/deps.js'
import type {LookUpResource} from './operations/look-up.js'
import type {ListFlags} from './lists/command.js'
import type {ListResource} from './operations/lists.js'
import type {Column} from './output/columns.js'
import {processIo, type Io} from './output/io.js'
import type {Prompter} from './output/prompt.js'
import type {GuardOptions} from './live-safety.js'
import {toGwError} from './to-gw-error.js'

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
  fields?: string
}

/** What a command's run() may return besides a record or a list: the exit status of a service that stopped, or of a batch (its worst row's). */
export class ExitStatus {
  constructor(readonly code: number) {}
}

/**
 * The base of every gw command (style.md §2–3): global flags, lazily built client, Io and
 * operation deps, and the reporter where a result is rendered and an error becomes output and an
 * exit code. A command's run() parses its flags into an operation's input, runs that operation
 * and returns what it gave: a record, a list, nothing, or an ExitStatus.
 */
export abstract class GwCommand extends Command {
  static override baseFlags = {
    profile: Flags.string({description: 'profile to use instead of the active one', helpGroup: 'GLOBAL'}),
    json: Flags.boolean({description: "print the gateway's records as JSON, one after another, pretty on a terminal (jq -s makes an array)", helpGroup: 'GLOBAL'}),
    verbose: Flags.boolean({description: 'log each request and response to stderr, secrets redacted', helpGroup: 'GLOBAL'}),
    yes: Flags.boolean({description: 'answer yes to confirmations', helpGroup: 'GLOBAL'}),
    'no-input': Flags.boolean({description: 'never prompt; fail instead when something is missing', helpGroup: 'GLOBAL'}),
    // For every command that prints records (it has columns); the others refuse it (refuseFieldsWithoutRecords).
    fields: Flags.string({
      description: 'fields of each record to show, in order, separated by commas (id,amount,reference); tables and JSON alike',
      helpGroup: 'GLOBAL',
      parse: async (input) => (await import('./output/fields.js')).parseFields(input).join(','),
    }),
  }

  /** How a table shows this command's record. */
  static columns: Column[] = []

  /**
   * A service (gw listen, gw sandbox start) stops itself on SIGINT and SIGTERM, finishing what is
   * in flight; every other command is stopped by the base class, its request aborted.
   */
  static handlesSignals = false

  private globals?: GlobalFlags
  private ioInstance?: Io
  private clientInstance?: GatewayClient
  private targetInstance?: Promise<Target & {token?: string}>
  private prompterInstance?: Promise<Prompter>
  private readonly stop = new AbortController()
  /**
   * The signal that came while a purchase or refund was in flight: it stopped nothing that had
   * left (design.md §5), the answer was waited for and shown, and gw exits as that signal says.
   */
  private waitedThrough?: StopSignal
  /** Set by a batch once its up-front live confirmation is done: its rows are then sent unasked. */
  private confirmedUpFront = false
  /**
   * A batch stops softly: on a first signal it starts no new rows and finishes those in flight
   * (returning true); a second signal stops it at once, as any command, with the error it
   * returns: the client names one request in flight, a batch has several.
   */
  private softStop?: (signal: StopSignal) => true | InterruptedError

  protected get io(): Io {
    this.ioInstance ??= processIo(process.env, {noInput: this.globals?.['no-input'] ?? false})
    return this.ioInstance
  }

  protected get json(): boolean {
    return this.globals?.json ?? this.argv.includes('--json')
  }

  /** How results render: --json, and the fields --fields picked. */
  protected get renderOptions(): {json: boolean; fields?: string[]} {
    const fields = this.globals?.fields
    return {json: this.json, ...(fields ? {fields: fields.split(',')} : {})}
  }

  /** --fields naming no field of the command's records, or on a command that prints none, is refused before anything runs (as gh does). */
  private async checkFields(): Promise<void> {
    const fields = this.globals?.fields
    if (fields === undefined) return
    const {columns} = this.ctor as typeof GwCommand
    if (columns.length === 0) throw new UsageError(`--fields picks the fields of records, and gw ${this.commandName} prints none`, 'Leave --fields out.')
    const known = await (await import('./output/fields.js')).knownFields(columns)
    const unknown = fields.split(',').filter((field) => !known.includes(field))
    if (unknown.length > 0) {
      const {sanitizeLine} = await import('./output/sanitize.js')
      throw new UsageError(`--fields: no such field ${unknown.map(sanitizeLine).join(', ')}`, `The fields of gw ${this.commandName}'s records: ${known.join(', ')}.`)
    }
  }

  /**
   * oclif's parse, and on a terminal a question for each required flag or argument left out
   * (design.md §1: a merchant answers prompts); without one, oclif's error naming every missing
   * flag stands.
   */
  protected override async parse<F extends FlagOutput, B extends FlagOutput, A extends ArgOutput>(
    options?: Interfaces.Input<F, B, A>,
    argv: string[] = this.argv,
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    // A batch (--input FILE) takes what one purchase or refund requires from the file's columns.
    if (options && argv.some((arg) => arg === '--input' || arg.startsWith('--input='))) options = withNothingRequired(options)
    let parsed: Interfaces.ParserOutput<F, B, A>
    try {
      parsed = await super.parse(options, argv)
    } catch (err) {
      // Every flag given is checked before anything is asked: `--ammount 100` is refused first,
      // not after the person has answered for the flags that were left out.
      if (options) await super.parse(withNothingRequired(options), argv)
      parsed = await super.parse(options, await this.askForMissing(err, argv))
    }
    this.globals = parsed.flags as unknown as GlobalFlags
    await this.checkFields()
    return parsed
  }

  /** argv with the answers to what the failed parse lacked; rethrows when nothing can be asked. */
  private async askForMissing(err: unknown, argv: string[]): Promise<string[]> {
    // --no-input is checked in argv: the parse that would have read it failed.
    if (argv.includes('--no-input') || !this.io.canPrompt()) throw err
    const {missingFrom, askForMissing} = await import('./output/ask-missing.js')
    const missing = missingFrom(err)
    if (missing.length === 0) throw err
    return askForMissing(missing, argv, {prompter: await this.prompter(), context: this, choicesFor: (name) => this.choicesFor(name)})
  }

  /** The values a missing flag or argument is chosen from, when they are fixed (frequencies; profiles in gw profile use). */
  protected async choicesFor(name: string): Promise<readonly string[] | undefined> {
    const {choices} = await import('./flags.js')
    return Object.hasOwn(choices, name) ? choices[name] : undefined
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

  /** The gateway and user this command works with, token not read yet; a live one says LIVE on a terminal. */
  protected target(): Promise<Target & {token?: string}> {
    this.targetInstance ??= (async () => {
      const {resolveTarget} = await import('./auth/resolve.js')
      const target = await resolveTarget({profileFlag: this.globals?.profile, env: process.env, configDir: this.config.configDir})
      if (target.environment === 'live' && this.io.isStderrTTY) {
        const [{liveMarker}, {paint}] = await Promise.all([import('./live-safety.js'), import('./output/colors.js')])
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

  /**
   * A card given in full: from stdin (--card -), the flags, or asked for; on a live profile never
   * from argv. A card is only ever read to be sent in a write, so a read-only profile refuses
   * here, before anyone types a card number.
   */
  protected async card(flags: CardFlags, {holderOptional = false} = {}): Promise<CardDetails | undefined> {
    const target = await this.target()
    const [{readCard}, {refuseWhenReadOnly}] = await Promise.all([import('./card-input.js'), import('./live-safety.js')])
    refuseWhenReadOnly(target, this.commandName)
    return readCard(flags, {live: target.environment === 'live', io: this.io, prompter: () => this.prompter(), commandId: this.commandName, holderOptional})
  }

  /** The API client for the profile in force, built on first use, every request passing the profile's guard. */
  protected async client(): Promise<GatewayClient> {
    if (this.clientInstance) return this.clientInstance
    const credentials = await this.credentials()
    const {requestGuard} = await import('./live-safety.js')
    // A batch confirms up front (batch()) before its first row asks for the client.
    const guard = requestGuard({...this.guardOptions(credentials), confirmedUpFront: this.confirmedUpFront, purchaseCurrency: async (id) => (await import('./operations/refunds.js')).purchaseCurrency(id, await this.deps())})
    this.clientInstance = await this.clientFor(credentials, guard)
    return this.clientInstance
  }

  /** What operations run with: this command's client and Io. */
  protected async deps(): Promise<Deps> {
    return {client: await this.client(), io: this.io}
  }

  /** Who asks, and how, for the live confirmations and the read-only refusal. */
  private guardOptions(target: Target): Omit<GuardOptions, 'confirmedUpFront'> {
    return {target, commandId: this.commandName, yes: this.globals?.yes ?? false, io: this.io, prompter: () => this.prompter()}
  }

  /**
   * A batch from --input (issue 9): its rows run through the kind's operations with this command's
   * deps; a live profile confirms the whole batch once instead of row by row, and a first signal
   * stops it softly. Exits with the worst row's code.
   */
  protected async batch<Input, Body extends object>(kind: BatchKind<Input, Body>, flags: BatchFlags): Promise<ExitStatus> {
    const [{runBatch}, {confirmBatch}] = await Promise.all([import('./batch/command.js'), import('./live-safety.js')])
    const code = await runBatch(kind, flags, {
      io: this.io,
      json: this.json,
      dataDir: this.config.dataDir,
      now: () => new Date(),
      target: async () => {
        const {baseUrl, username} = await this.target()
        return {base_url: baseUrl.replace(/\/+$/, ''), username}
      },
      deps: async (plan) => {
        await confirmBatch({...this.guardOptions(await this.target()), plan})
        this.confirmedUpFront = true
        return this.deps()
      },
      onSignal: (handler) => {
        this.softStop = handler
      },
    })
    return new ExitStatus(code)
  }

  /** HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the environment, checked; undefined when no proxy is set. */
  protected async proxy(): Promise<ProxySettings | undefined> {
    const {proxySettings} = await import('./api/proxy.js')
    return proxySettings(process.env)
  }

  /**
   * A client for the given credentials: the profile's, whose environment every answer is checked
   * against, or those gw login is about to save, whose environment the gateway's answer tells.
   */
  protected async clientFor(
    credentials: Pick<Credentials, 'baseUrl' | 'username' | 'token' | 'connectTimeoutMs' | 'responseTimeoutMs'> & {environment?: Credentials['environment']},
    guard?: ConstructorParameters<typeof GatewayClient>[0]['guard'],
  ): Promise<GatewayClient> {
    const [{GatewayClient}, {paint}, {recoveryNotice}] = await Promise.all([import('./api/client.js'), import('./output/colors.js'), import('./output/hints.js')])
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
      onRecovery: (event) => io.err(paint(io.errColor, 'yellow', recoveryNotice(event)) + '\n'),
      guard,
      environment: credentials.environment,
      signal: this.stop.signal,
    })
  }

  /**
   * Records looked up by the ids given as arguments (or `-`, one a line on stdin, or --input FILE).
   * One id renders as a record; several are looked up `concurrency` at a time and print in the
   * order given, a failed one reported while the rest still run. The exit code is the worst any
   * id had (design.md §4).
   */
  protected async lookUpAll(resource: LookUpResource, argv: string[], noun?: string, flags: {input?: string; concurrency?: number} = {}): Promise<GwRecord | undefined> {
    const [{readIds}, {lookUp}, {lookUpEach}, {DEFAULT_CONCURRENCY}] = await Promise.all([
      import('./batch/input.js'),
      import('./operations/look-up.js'),
      import('./batch/look-ups.js'),
      import('./flags.js'),
    ])
    const {ids, batch} = await readIds(argv, this.io, noun, flags.input)
    const deps = await this.deps()
    if (!batch && ids.length === 1) return lookUp(resource, ids[0]!, deps)
    const columns = (this.ctor as typeof GwCommand).columns
    const {failed, worst} = await lookUpEach(resource, ids, {deps, columns, render: this.renderOptions, concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY})
    if (worst) throw new SomeFailed(`${failed} of ${ids.length} look-ups failed`, worst)
    return undefined
  }

  /**
   * A list command's records (issue 20), streamed as they come and printed as every command
   * prints records.
   */
  protected async list(resource: ListResource, flags: ListFlags, noun: string): Promise<undefined> {
    const {runList} = await import('./lists/command.js')
    await runList(resource, flags, {deps: await this.deps(), io: this.io, columns: (this.ctor as typeof GwCommand).columns, render: this.renderOptions, noun})
    return undefined
  }

  protected override async _run<T>(): Promise<T> {
    const handled = (this.ctor as typeof GwCommand).handlesSignals
    const signalled = new Promise<never>((_, reject) => {
      this.stopOnSignal = (signal) => {
        const soft = this.softStop?.(signal)
        if (soft === true) {
          process.once(signal, this.stopOnSignal)
          return
        }
        const inFlight = this.clientInstance?.inFlight
        if (!soft && inFlight && this.waitedThrough === undefined) {
          this.waitedThrough = signal
          void import('./output/hints.js').then(({waitingNotice}) => this.io.err(waitingNotice(signal, inFlight)))
          process.once(signal, this.stopOnSignal)
          return
        }
        // The request in flight is aborted; run() may instead be waiting on stdin or a prompt,
        // which nothing aborts, so the signal also ends the wait, naming any money in flight.
        const error = soft ?? new InterruptedError(signal, inFlight)
        this.stop.abort(signal)
        reject(error)
      }
    })
    signalled.catch(() => {})
    if (!handled) for (const signal of STOP_SIGNALS) process.once(signal, this.stopOnSignal)
    let result: unknown
    try {
      await this.init()
      result = await Promise.race([this.run(), signalled])
      if (result instanceof ExitStatus) process.exitCode = result.code
      else if (result !== undefined && result !== null) await this.render(result as GwRecord | GwRecord[])
    } catch (err) {
      await this.report(err)
    } finally {
      if (!handled) for (const signal of STOP_SIGNALS) process.off(signal, this.stopOnSignal)
      // A service (gw listen) stops by itself when its reader goes away; any other command says so.
      if (!handled) await this.reportBrokenStdout()
      await this.clientInstance?.close()
      // The outcome is shown; the exit status still says the command was interrupted.
      if (this.waitedThrough) process.exitCode = new InterruptedError(this.waitedThrough).exitCode
    }
    return result as T
  }

  private stopOnSignal: (signal: StopSignal) => void = () => {}

  /** Whether an error about writing was reported already (a batch's, naming its journal). */
  private writeErrorReported = false

  /**
   * stdout that could not be written (`> /dev/full`, a reader gone): one short line on stderr and
   * a failing exit, never the silent 0 of a result that reached no one (design.md §4: 141 for a
   * reader gone).
   */
  protected async reportBrokenStdout(): Promise<void> {
    await this.io.flushOut?.()
    const broken = this.io.outFailure?.()
    if (!broken || this.writeErrorReported) return
    const {renderError} = await import('./output/render.js')
    const pipe = broken.code === 'EPIPE'
    const error = new WriteError(pipe ? "stdout's reader went away before all was printed" : `stdout could not be written (${broken.code ?? broken.message}): what was printed there is incomplete`, broken, {exitCode: pipe ? 141 : 1})
    renderError(this.io, error, {json: this.json})
    process.exitCode = error.exitCode
  }

  /** A record or a list (an array), rendered by where stdout goes (design.md §3). */
  protected async render(result: GwRecord | GwRecord[]): Promise<void> {
    const {renderList, renderRecord} = await import('./output/render.js')
    const columns = (this.ctor as typeof GwCommand).columns
    if (Array.isArray(result)) await renderList(this.io, result, columns, this.renderOptions)
    else await renderRecord(this.io, result, columns, this.renderOptions)
  }

  /** The reporter: an error becomes its message and hint on stderr (and its record on stdout) and the exit code. */
  private async report(err: unknown): Promise<void> {
    if (err instanceof Errors.ExitError) throw err
    const ctor = this.ctor as typeof GwCommand
    const error = toGwError(err, {name: `${this.config.bin} ${this.commandName}`, flags: [...Object.keys(ctor.flags ?? {}), ...Object.keys(ctor.baseFlags ?? {})]})
    const {renderError, renderRecord} = await import('./output/render.js')
    if (error instanceof WriteError) this.writeErrorReported = true
    // A decline is a processed transaction: its record is the result, on stdout like any other.
    if (error.record) await renderRecord(this.io, error.record, (this.ctor as typeof GwCommand).columns, this.renderOptions)
    renderError(this.io, error, {json: this.json && !(error instanceof SomeFailed)})
    if (error.kind === 'unexpected' && this.globals?.verbose && err instanceof Error && err.stack) this.io.err(err.stack + '\n')
    process.exitCode = error.exitCode
    // A signal or an abandoned native call may leave a wait behind (stdin, a prompt, the keychain)
    // that would hold the process open: once the error is reported, gw leaves.
    if (error instanceof InterruptedError || error.abandonsPendingCall) setTimeout(() => process.exit(), 100).unref()
  }
}

/** Several look-ups, some failed: exits with the worst code among them. */
class SomeFailed extends GwError {
  constructor(message: string, worst: GwError) {
    super(worst.kind, worst.exitCode, message)
  }
}

/** A command's flags and arguments with none required (a class's statics, inherited ones included, as oclif reads them). */
function withNothingRequired<T extends Interfaces.Input<FlagOutput, FlagOutput, ArgOutput>>(options: T): T {
  const optional = <D extends object>(definitions: Record<string, D> = {}) => Object.fromEntries(Object.entries(definitions).map(([name, definition]) => [name, {...definition, required: false}]))
  return {
    ...options,
    flags: optional(options.flags),
    args: optional(options.args),
    baseFlags: options.baseFlags,
    strict: options.strict,
    enableJsonFlag: options.enableJsonFlag,
  } as T
}

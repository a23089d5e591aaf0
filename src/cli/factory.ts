import type {GatewayClient, GatewayTime} from '../api/client.js'
import type {ProxySettings} from '../api/proxy.js'
import type {Credentials, Target} from '../auth/resolve.js'
import type {TokenStores} from '../auth/token-store.js'
import type {BatchConfirmation, GuardOptions} from './live-safety.js'
import type {Deps} from '../operations/deps.js'
import type {Column} from '../output/columns.js'
import {type Io, processIo} from '../output/io.js'
import {filteredIo} from '../output/jq.js'
import {pagedIo} from '../output/pager.js'
import type {Prompter} from '../output/prompter.js'
import type {RenderOptions} from '../output/render.js'
import {renderWarning} from '../output/warning.js'
import type {ClientCredentials, RequestGuard} from './build-client.js'
import {type GlobalFlags, globalsInArgv} from './global-flags.js'
import {Stop} from './signals.js'
import {hostPlatform, type Platform} from '../lib/platform.js'
import {keepPrivate} from '../lib/own-file.js'
import type {FlagTable} from './startup/argv.js'

/**
 * What a command needs (gh's cmdutil.Factory), each part built the first time it is asked for,
 * from the flags, the environment and the config: a command that prints its help reads no profile,
 * and one that sends nothing loads no HTTP client. Commands hand it to the runs of look-ups and
 * lists (cli/), its parts to a batch (cli/batch-deps.ts), and operations the deps it makes;
 * in-process tests hand commands one with fakes in it.
 */
export interface Factory {
  readonly io: Io
  /** The command as people type it (`purchase create`), for messages; gw api adds its request. */
  commandName: string
  /** How a table shows the command's records. */
  readonly columns: Column[]
  /** The global flags: as parsed once the parse is done, before it what argv says. */
  readonly flags: GlobalFlags
  /** How records render: --json, and the fields --fields picked. */
  readonly render: RenderOptions
  /** The system gw runs on: its folders, signals, processes and hints (lib/platform.ts). */
  readonly platform: Platform
  /** gw's folders, as oclif found them on this platform (platform.folders says how). */
  readonly configDir: string
  readonly dataDir: string
  readonly cacheDir: string
  readonly stop: Stop
  /** The global flags as the parse read them. */
  useFlags(flags: GlobalFlags): void
  prompter(): Promise<Prompter>
  tokenStores(): Promise<TokenStores>
  /** The gateway and user this command works with, token not read yet. */
  target(): Promise<Target & {token?: string}>
  credentials(): Promise<Credentials>
  /** HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the environment, checked; undefined when no proxy is set. */
  proxy(): Promise<ProxySettings | undefined>
  /**
   * The client for the profile in force, every request passing the profile's guard. A batch's is
   * built with its one live confirmation (confirmBatch): its rows are not asked about one by one,
   * and a read-only profile still refuses each.
   */
  client(confirmed?: BatchConfirmation): Promise<GatewayClient>
  /** A client for other credentials (those gw login is about to save). */
  clientFor(credentials: ClientCredentials, guard?: RequestGuard): Promise<GatewayClient>
  /** What operations run with: the client (a batch's, given its confirmation) and the Io. */
  deps(confirmed?: BatchConfirmation): Promise<Deps>
  /** Now as the gateway dates its records, and its calendar, for named days (today, monday): a local gateway's today and time zone, else this machine's (GatewayClient.gatewayTime). */
  gatewayTime(): Promise<GatewayTime>
  /** Ids the person named by another key (a reference), id → the key as typed: a live confirmation takes either (cli/resolve-key.ts). */
  readonly keysGiven: Map<string, string>
  /** The money in flight now, for a signal to name. */
  inFlight(): Deps['client']['inFlight']
  /** Whether the gateway's last answer came from a local gateway (gw sandbox), by the run of data it named itself with (X-Sandbox-Instance), not by its address. */
  localGateway(): boolean
  /** Ends the client's connections, so a one-shot command exits as soon as its work is done. */
  close(): Promise<void>
}

export interface FactoryContext {
  commandName: string
  columns: Column[]
  argv: readonly string[]
  /** The command's flags as oclif declares them, to read argv with before the parse (`--reference --json` is no --json). */
  flags?: FlagTable
  env: NodeJS.ProcessEnv
  config: {configDir: string; dataDir: string; cacheDir: string; version: string}
  /** The system gw runs on; tests hand it another. */
  platform?: Platform
  /** Told the target once it is resolved from the profiles and the environment (the command says LIVE there). */
  onTarget?: (target: Target) => Promise<void>
}

/** Parts a test puts in place of the real ones (gh's tests set Factory fields the same way). */
export type FactoryParts = Partial<Pick<Factory, 'io' | 'prompter' | 'tokenStores' | 'target' | 'credentials' | 'proxy' | 'client' | 'gatewayTime'>>

export function createFactory(context: FactoryContext, parts: FactoryParts = {}): Factory {
  return new CommandFactory(context, parts)
}

class CommandFactory implements Factory {
  commandName: string
  readonly columns: Column[]
  readonly platform: Platform
  readonly configDir: string
  readonly cacheDir: string
  readonly stop: Stop
  readonly keysGiven = new Map<string, string>()
  private globals: GlobalFlags
  private ioMade?: Io
  /** stdout through --jq's filter, once the flags say so. */
  private filteredIo?: Io
  private prompterMade?: Promise<Prompter>
  private targetMade?: Promise<Target & {token?: string}>
  /** The command's client, and a batch's. */
  private readonly clientsMade = new Map<'asking' | 'confirmed', Promise<GatewayClient>>()
  private readonly clientsBuilt: GatewayClient[] = []
  private warnedOfPlainFile = false
  private dataDirKept = false

  constructor(
    private readonly context: FactoryContext,
    private readonly parts: FactoryParts,
  ) {
    this.commandName = context.commandName
    this.columns = context.columns
    this.platform = context.platform ?? hostPlatform()
    this.configDir = context.config.configDir
    this.cacheDir = context.config.cacheDir
    this.globals = globalsInArgv(context.argv, context.flags)
    this.stop = new Stop({inFlight: () => this.inFlight(), io: () => this.io, signals: this.platform.stopSignals})
  }

  /**
   * gw's data folder (runtime files, logs, journals), the user's alone whenever gw uses it: one made
   * 0755 (by hand, or a umask of 022) is made 0700 (lib/own-file.ts keepPrivate; docs/platforms.md says so).
   */
  get dataDir(): string {
    if (!this.dataDirKept) keepPrivate(this.context.config.dataDir)
    this.dataDirKept = true
    return this.context.config.dataDir
  }

  get io(): Io {
    this.ioMade ??= this.parts.io ?? pagedIo(processIo(this.context.env, {noInput: this.globals['no-input']}), this.context.env)
    return this.filteredIo ?? this.ioMade
  }

  get flags(): GlobalFlags {
    return this.globals
  }

  get render(): RenderOptions {
    const {json, fields, jq} = this.globals
    return {json, ...(fields ? {fields: fields.split(',')} : {}), ...(jq ? {filtered: true} : {})}
  }

  useFlags(flags: GlobalFlags): void {
    // --jq prints JSON, and fails as --json does: with the error object on stderr.
    this.globals = flags.jq ? {...flags, json: true} : flags
    if (flags.jq && !this.filteredIo) this.filteredIo = filteredIo(this.io, flags.jq, {
        onSignal: (listener) => this.stop.onSignal(listener),
        interruptedLate: (signal) => this.stop.heard(signal),
        signals: this.platform.stopSignals,
      })
  }

  prompter(): Promise<Prompter> {
    this.prompterMade ??= this.parts.prompter?.() ?? import('../output/prompt.js').then(({terminalPrompter}) => terminalPrompter())
    return this.prompterMade
  }

  async tokenStores(): Promise<TokenStores> {
    if (this.parts.tokenStores) return this.parts.tokenStores()
    return (await import('../auth/token-store.js')).tokenStores(this.configDir, this.platform.os)
  }

  target(): Promise<Target & {token?: string}> {
    this.targetMade ??= this.parts.target?.() ?? this.resolveTarget()
    return this.targetMade
  }

  private async resolveTarget(): Promise<Target & {token?: string}> {
    const {resolveTarget} = await import('../auth/resolve.js')
    const target = await resolveTarget({profileFlag: this.globals.profile, env: this.context.env, configDir: this.configDir})
    await this.context.onTarget?.(target)
    return target
  }

  async credentials(): Promise<Credentials> {
    if (this.parts.credentials) return this.parts.credentials()
    const {withToken} = await import('../auth/resolve.js')
    const credentials = await withToken(await this.target(), await this.tokenStores())
    // As docs/live-profiles.md promises: every command that uses a token kept in a plain file says so, naming it.
    if (credentials.secretStorage === 'file' && !this.warnedOfPlainFile) {
      this.warnedOfPlainFile = true
      const {plainFileWarning} = await import('../auth/token-store.js')
      renderWarning(this.io, plainFileWarning(credentials.profileName!, credentials.secretLocation))
    }
    return credentials
  }

  async proxy(): Promise<ProxySettings | undefined> {
    if (this.parts.proxy) return this.parts.proxy()
    return (await import('../api/proxy.js')).proxySettings(this.context.env)
  }

  client(confirmed?: BatchConfirmation): Promise<GatewayClient> {
    const kind = confirmed ? 'confirmed' : 'asking'
    let made = this.clientsMade.get(kind)
    if (!made) {
      made = (this.parts.client?.() ?? this.guardedClient(confirmed)).then((client) => (this.clientsBuilt.push(client), client))
      this.clientsMade.set(kind, made)
    }
    return made
  }

  private async guardedClient(confirmed: BatchConfirmation | undefined): Promise<GatewayClient> {
    const credentials = await this.credentials()
    const {requestGuard} = await import('./live-safety.js')
    const purchaseCurrency = async (id: string) => (await import('../operations/refunds.js')).purchaseCurrency(id, await this.deps())
    const options: GuardOptions = {target: credentials, commandId: this.commandName, yes: this.globals.yes, io: this.io, prompter: () => this.prompter(), purchaseCurrency, keyGiven: (id) => this.keysGiven.get(id), ...confirmed}
    return this.clientFor(credentials, requestGuard(options))
  }

  async clientFor(credentials: ClientCredentials, guard?: RequestGuard): Promise<GatewayClient> {
    const {buildClient} = await import('./build-client.js')
    const keys = await import('./local-gateway-keys.js')
    const localGatewayKeys = () => keys.localGatewayKeys(this.dataDir)
    const controlToken = credentials.controlToken ?? (await keys.localGatewayToken(this.dataDir, credentials.baseUrl))
    return buildClient({...credentials, controlToken}, {io: this.io, verbose: this.globals.verbose, version: this.context.config.version, proxy: await this.proxy(), guard, signal: this.stop.signal, localGatewayKeys})
  }

  async deps(confirmed?: BatchConfirmation): Promise<Deps> {
    return {client: await this.client(confirmed), io: this.io}
  }

  async gatewayTime(): Promise<GatewayTime> {
    if (this.parts.gatewayTime) return this.parts.gatewayTime()
    return (await this.client()).gatewayTime()
  }

  inFlight(): Deps['client']['inFlight'] {
    return this.clientsBuilt.map((client) => client.inFlight).find((inFlight) => inFlight !== undefined)
  }

  localGateway(): boolean {
    return this.clientsBuilt.some((client) => client.gatewayInstance !== undefined)
  }

  async close(): Promise<void> {
    await Promise.all(this.clientsBuilt.map((client) => client.close()))
  }
}

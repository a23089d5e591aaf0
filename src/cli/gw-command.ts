import {Command, type Config, Errors, type Interfaces} from '@oclif/core'
import {createFactory, type Factory} from './factory.js'
import {checkFields, checkJq, type GlobalFlags, globalFlags} from './global-flags.js'
import {type ArgOutput, type FlagOutput, parseOrAsk} from './parse.js'
import {Reporter} from './reporter.js'
import {grammarOf} from './startup/argv.js'
import {mayNotify} from './startup/update-rule.js'
import type {Column} from '../output/columns.js'
import type {Io} from '../output/io.js'

export {ExitStatus} from './reporter.js'

/**
 * The base of every gw command (style.md §2–3): it parses, runs, renders and reports, through
 * oclif's own _run, catch and finally. What a command needs (Io, target, credentials, prompter,
 * the client with its guard) comes from its Factory, built lazily. A command says two things: its
 * input() (its flags and arguments parsed into the input its operation gets) and its operate()
 * (the operation run on that input with the factory's deps, returning what it gave: a record, a
 * list, nothing, or an ExitStatus). The base's run() joins them and renders the result.
 */
export abstract class GwCommand<Input = unknown> extends Command {
  static override baseFlags = globalFlags

  /** How a table shows this command's record. */
  static columns: Column[] = []

  /** It prints JSON though it has no columns (gw api, gw listen): --jq may filter it. */
  static printsJson = false

  /**
   * A service (gw listen, gw sandbox start) stops itself on SIGINT and SIGTERM, finishing what is
   * in flight; every other command is stopped by its factory's Stop, its request aborted.
   */
  static handlesSignals = false

  /** What this command needs; set before _run by in-process tests, else made from this process on first run. */
  factory!: Factory
  private reporter!: Reporter
  private unwatchSignals = () => {}
  /** Run on the input in place of operate() (gh's runF): a test takes the input the parse made, and nothing is sent. */
  private runF?: (input: Input) => unknown

  /**
   * Runs in this process with the factory given, as oclif's run() does with the real one; with
   * `runF`, that in place of the operation (gh's runF): the parse alone, its input handed to `runF`.
   */
  static async runWith<I>(this: new (argv: string[], config: Config) => GwCommand<I>, argv: string[], config: Config, factory: Factory, runF?: (input: I) => unknown): Promise<unknown> {
    const command = new this(argv, config)
    command.factory = factory
    command.runF = runF
    return command._run()
  }

  /**
   * The command's parse: its flags and arguments as the input its operation gets, checked (a
   * usage error names the flag). What the flags point at (a card on stdin, a file's body) and
   * what a person is asked at a terminal are part of it.
   */
  protected abstract input(): Promise<Input>

  /** The command's one operation, run on its input: a record, a list, nothing, or an ExitStatus. */
  protected abstract operate(input: Input): Promise<unknown>

  /**
   * oclif's run: the input, then the operation, and the result rendered. A signal ends either
   * even where it waits on what nothing aborts (stdin, a prompt).
   */
  override async run(): Promise<unknown> {
    const input = await this.untilStopped(this.input())
    const result = await this.untilStopped(this.runF ? Promise.resolve(this.runF(input)) : this.operate(input))
    this.factory.stop.workDone()
    await this.reporter.result(result)
    return result
  }

  private untilStopped<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.factory.stop.interrupted])
  }

  protected get io(): Io {
    return this.factory.io
  }

  protected override async parse<F extends FlagOutput, B extends FlagOutput, A extends ArgOutput>(
    options?: Interfaces.Input<F, B, A>,
    argv: string[] = this.argv,
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    // Asked for, even if it fails: oclif warns (under NODE_ENV=test or development) of a command that never parses.
    this.parsed = true
    const asking = {command: `${this.config.bin} ${this.factory.commandName}`, context: this, choicesFor: (name: string) => this.choicesFor(name), alsoMissing: (flags: FlagOutput) => this.alsoMissing(flags), currencyOf: (flags: FlagOutput) => this.currencyOf(flags)}
    const parsed = await parseOrAsk((opts, args) => super.parse(opts, args), options, argv, this.factory, asking)
    this.factory.useFlags(parsed.flags as unknown as GlobalFlags)
    await checkFields(this.factory.flags.fields, this.factory.columns, this.factory.commandName, (this.ctor as typeof GwCommand).printsJson)
    checkJq(this.factory.flags.jq, this.factory.columns.length > 0 || (this.ctor as typeof GwCommand).printsJson, this.factory.commandName)
    return parsed
  }

  /** The values a missing flag or argument is chosen from, when they are fixed (frequencies; profiles in gw profile use). */
  protected async choicesFor(name: string): Promise<readonly string[] | undefined> {
    const {choices} = await import('./flags.js')
    return Object.hasOwn(choices, name) ? choices[name] : undefined
  }

  /** The currency of --amount, given the flags (--currency), where the command knows it: an amount asked at a terminal reads back in it. */
  protected currencyOf(flags: FlagOutput): string | undefined {
    return typeof flags.currency === 'string' ? flags.currency : undefined
  }

  /** What the command cannot go without besides its required flags (a card), given the flags it has: said with the missing ones. */
  protected async alsoMissing(_flags: FlagOutput): Promise<string | undefined> {
    return undefined
  }

  /** oclif's _run, with set-up first (as sf's SfCommand does): the factory, the reporter, the signals; oclif's then calls run, catch and finally. */
  protected override async _run<T>(): Promise<T> {
    const ctor = this.ctor as typeof GwCommand
    this.factory ??= createFactory({
      commandName: (this.id ?? '').replaceAll(':', ' '),
      columns: ctor.columns,
      argv: this.argv,
      flags: grammarOf(ctor),
      env: process.env,
      config: this.config,
      onTarget: async (target) => (await import('./live-safety.js')).announceLive(this.factory.io, target),
    })
    const flags = [...Object.keys(ctor.flags ?? {}), ...Object.keys(ctor.baseFlags ?? {})]
    // Its help is the command's as typed (`gw api --help`), whatever name its messages give the request (`api POST /v1.0/plans`).
    const helpName = this.id === undefined ? undefined : this.id.replaceAll(':', ' ')
    this.reporter = new Reporter(this.factory, {name: () => `${this.config.bin} ${helpName ?? this.factory.commandName}`, flags})
    if (!ctor.handlesSignals) this.unwatchSignals = this.factory.stop.watch()
    return super._run<T>()
  }

  /**
   * The reporter: an error becomes its message and hint on stderr (and its record on stdout) and
   * the exit code. It is not thrown on: oclif's handler would end the process at once, cutting
   * off what stdout still has to write to a slow reader.
   */
  protected override async catch(err: Interfaces.CommandError): Promise<void> {
    if (err instanceof Errors.ExitError) throw err
    this.factory.stop.workDone()
    await this.reporter.error(err)
  }

  protected override async finally(err: Error | undefined): Promise<void> {
    this.unwatchSignals()
    // A pager still shows the output: its reader leaves it first.
    await this.factory.io.close()
    // A service (gw listen) stops by itself when its reader goes away; any other command says so.
    if (!(this.ctor as typeof GwCommand).handlesSignals) await this.reporter.brokenStdout()
    await this.factory.close()
    // gh's update notice, after the command's own output: loaded only where it may show.
    if (mayNotify(process.env, {stdout: Boolean(process.stdout.isTTY), stderr: Boolean(process.stderr.isTTY)})) await this.noticeUpdate()
    // The outcome is shown; the exit status still says the command was interrupted.
    this.reporter.interruptedBy(this.factory.stop.exitCode())
    return super.finally(err)
  }

  private async noticeUpdate(): Promise<void> {
    const {noticeUpdate, thisGw} = await import('./update-notice.js')
    const {install, startCheck} = thisGw(this.config.pjson, this.config.root)
    noticeUpdate({install, startCheck, env: process.env, dataDir: () => this.factory.dataDir, now: new Date(), err: (text) => this.factory.io.err(text)})
  }

  /** For a command that prints as it goes (gw sandbox logs) and returns no result. */
  protected reportBrokenStdout(): Promise<void> {
    return this.reporter.brokenStdout()
  }
}

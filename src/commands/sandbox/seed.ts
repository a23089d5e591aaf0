import {Args, Flags} from '@oclif/core'
import type {HistoryRequest} from '../../api/schemas/sandbox-control.js'
import {localGatewayName} from '../../cli/flags.js'
import {useLocalGateway} from '../../cli/local-gateway.js'
import {GwCommand} from '../../cli/gw-command.js'
import type {SeedStep} from '../../seed/step.js'

/** A file's steps, checked, where they came from, and whether to send them (--check: not); or a quick history to make. */
type SeedInput = {steps: SeedStep[]; source: string; check: boolean} | {history: HistoryRequest}

/** The flags of a quick history: any of them given asks for one. */
const HISTORY_FLAGS = ['purchases', 'refunds', 'days', 'cards', 'reference-prefix'] as const

export default class SandboxSeed extends GwCommand<SeedInput> {
  static override summary = 'Create the records of a fixtures file on the sandbox, or a quick history of purchases and refunds on the local gateway'
  static override description = `FILE is JSON: {"steps": [{"name": "gold", "create": "plan", "fields": {...}}, ...]}, each step one record of its kind (card, plan, customer, purchase, refund, subscription, webhook, payment_plan, direct_debit) with the API's own fields. A purchase, refund, customer, subscription, payment_plan or direct_debit step may carry "at", a day ("at": "2026-11-17", noon of it) or a date-time with its offset, to date its record in the past. Only the local gateway dates records. A refund is dated on or after its purchase; a subscription, plan or debit is billed from that day. A later step names a field of an earlier one's record as {{gold.id}}: alone in a string it takes the value as it is, inside text as text. Keys starting with _ are comments.
The whole file is checked before anything is sent (exit 2 naming each step and field at fault). Steps run in order through gw's own client against the gateway of the profile in force, a sandbox only (a live profile is refused). A step whose record is there already (by its reference; a card by its alias, a web hook by its address) with the step's values is reported present, and not sent again. So running a file twice creates nothing the second time. With other values it differs: nothing is sent, the fields are named and the run stops with exit 7.
Prints one JSON line per step: step, name, status (created, present, differs, declined, failed) and record. The first step that fails or differs stops the run, with its exit code. A refund it makes is recorded as gw's own, as refund create records its refunds: refund list --purchase and purchase get find it for certain.
Without FILE, --purchases N makes a quick history on the local gateway in one request, for tests, benches and load tests: N approved purchases and --refunds M refunds, dated over --days up to the gateway's now. The same flags make the same history: amounts, dates and references (PREFIX-p1 oldest, its refunds PREFIX-p1-R1...). Its refunds are the gateway's own records: gw recorded making none of them. Prints the counts and the first and last dates as JSON, and a line on stderr. A fixtures file with a purchase "at" a day before the history's first puts one purchase before it all.`

  static override printsJson = true

  static override examples = [
    '<%= config.bin %> <%= command.id %> fixtures.json',
    '<%= config.bin %> <%= command.id %> fixtures.json --check',
    '<%= config.bin %> <%= command.id %> fixtures.json | jq -r \'select(.name == "order") | .record.id\'',
    '<%= config.bin %> <%= command.id %> --purchases 200 --refunds 1000 --days 60',
  ]

  static override args = {
    file: Args.string({description: 'fixtures file (JSON), or - to read it from stdin; left out with --purchases'}),
  }

  static override flags = {
    name: localGatewayName(),
    check: Flags.boolean({description: 'check the file and send nothing'}),
    purchases: Flags.integer({description: "without FILE: make a quick history of this many approved purchases on the local gateway, dated over --days up to its now"}),
    refunds: Flags.integer({description: 'with --purchases: this many refunds of them, each after its purchase and within what it has left (none unless given)'}),
    days: Flags.integer({description: 'with --purchases: how many days back the history goes (30 unless given)'}),
    cards: Flags.integer({description: 'with --purchases: how many cards it is made on, the approved test cards in turn (4 unless given)'}),
    'reference-prefix': Flags.string({description: 'with --purchases: purchases are PREFIX-p1 (the oldest), PREFIX-p2..., refunds PREFIX-p1-R1... (hist unless given)'}),
  }

  protected async input(): Promise<SeedInput> {
    const {args, flags} = await this.parse(SandboxSeed)
    const history = HISTORY_FLAGS.some((flag) => flags[flag] !== undefined)
    if (history || args.file === undefined) {
      const {UsageError} = await import('../../errors.js')
      if (args.file !== undefined) throw new UsageError(`gw sandbox seed takes a fixtures file or --purchases, not both: ${args.file} was given with --${HISTORY_FLAGS.find((flag) => flags[flag] !== undefined)}`, 'Run it twice: the history, then the file.')
      if (!history) throw new UsageError('gw sandbox seed needs a fixtures FILE, or --purchases N for a quick history', 'For example: gw sandbox seed fixtures.json, or gw sandbox seed --purchases 200 --refunds 1000.')
      if (flags.check) throw new UsageError('--check checks a fixtures file, and a quick history has none', 'Leave --check out: the history is checked before anything is made.')
      const {historyRequest} = await import('../../seed/history.js')
      const request = historyRequest(flags)
      await useLocalGateway(this.factory, flags.name)
      return {history: request}
    }
    await useLocalGateway(this.factory, flags.name)
    const {readSeedFile, checkSeedFile, datesSteps} = await import('../../seed/file.js')
    const {text, source} = await readSeedFile(args.file, this.io)
    // A step's at is judged by the gateway's today (a local gateway's clock may have been moved on):
    // asked only of a file that dates a step, so --check of any other needs no gateway.
    const here = datesSteps(text) ? await this.factory.gatewayTime() : undefined
    return {steps: checkSeedFile(text, source, here), source, check: flags.check}
  }

  protected async operate(input: SeedInput) {
    if ('history' in input) return this.makeHistory(input.history)
    const {steps, source, check} = input
    if (check) {
      this.io.err(`${source}: ${steps.length} ${steps.length === 1 ? 'step' : 'steps'}, every one well-formed; nothing was sent.\n`)
      return
    }
    const [{seed}, {seedPrinter}] = await Promise.all([import('../../operations/seed.js'), import('../../output/seed.js')])
    const {environment} = await this.sandboxTarget()
    const print = seedPrinter(this.io, {json: this.factory.flags.json})
    const [deps, {recordMade}] = await Promise.all([this.factory.deps(), import('../../lists/refunds-of-purchase.js')])
    const recordRefund = (sent: Parameters<typeof recordMade>[0], transactionId: string) => recordMade(sent, transactionId, this.factory, deps.client)
    print.summary(await seed(steps, {environment, source, recordRefund}, deps, print.step))
  }

  /** The history made, its counts the result, and a line on stderr saying what and how long. */
  private async makeHistory(request: HistoryRequest) {
    await this.sandboxTarget()
    const [{seedHistory}, {historySummary, historyFailure}] = await Promise.all([import('../../operations/seed-history.js'), import('../../seed/history.js')])
    const started = performance.now()
    const made = await seedHistory(request, await this.factory.deps()).catch((err: unknown) => Promise.reject(historyFailure(err)))
    this.io.err(historySummary(made, performance.now() - started))
    return made
  }

  /** The profile in force, which every step may write to: a read-only one is refused before the first look-up, and so is a live one. */
  private async sandboxTarget() {
    const target = await this.factory.target()
    const {refuseWhenReadOnly} = await import('../../cli/live-safety.js')
    refuseWhenReadOnly(target, this.factory.commandName)
    if (target.environment !== 'sandbox') {
      const {UsageError} = await import('../../errors.js')
      throw new UsageError('gw sandbox seed creates records on a sandbox only, and the profile in force is live: nothing was sent', 'Use the local gateway (gw sandbox start; gw profile use local) or another sandbox profile with --profile.')
    }
    return target
  }
}

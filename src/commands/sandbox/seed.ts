import {Args, Flags} from '@oclif/core'
import {localGatewayName} from '../../cli/flags.js'
import {useLocalGateway} from '../../cli/local-gateway.js'
import {GwCommand} from '../../cli/gw-command.js'
import type {SeedStep} from '../../seed/step.js'

/** The file's steps, checked, where they came from, and whether to send them (--check: not). */
interface SeedInput {
  steps: SeedStep[]
  source: string
  check: boolean
}

export default class SandboxSeed extends GwCommand<SeedInput> {
  static override summary = 'Create the records of a fixtures file on the sandbox: cards, plans, customers, purchases, refunds, subscriptions, web hooks'
  static override description = `FILE is JSON: {"steps": [{"name": "gold", "create": "plan", "fields": {...}}, ...]}, each step one record of its kind (card, plan, customer, purchase, refund, subscription, webhook, payment_plan, direct_debit) with the API's own fields. A purchase, refund, customer, subscription, payment_plan or direct_debit step may carry "at", a day ("at": "2026-11-17", noon of it) or a date-time with its offset, to date its record in the past (only the local gateway dates records; a refund is dated on or after its purchase; a subscription, plan or debit is billed from that day). A later step names a field of an earlier one's record as {{gold.id}}: alone in a string it takes the value as it is, inside text as text. Keys starting with _ are comments.
The whole file is checked before anything is sent (exit 2 naming each step and field at fault). Steps run in order through gw's own client against the gateway of the profile in force, a sandbox only (a live profile is refused). A step whose record is there already (by its reference; a card by its alias, a web hook by its address) with the step's values is reported present and not sent again, so running a file twice creates nothing the second time; with other values it differs: nothing is sent, the fields are named and the run stops with exit 7.
Prints one JSON line per step: step, name, status (created, present, differs, declined, failed) and record. The first step that fails or differs stops the run, with its exit code. A refund it makes is recorded as gw's own, as refund create records its refunds: refund list --purchase and purchase get find it for certain.`

  static override printsJson = true

  static override examples = [
    '<%= config.bin %> <%= command.id %> fixtures.json',
    '<%= config.bin %> <%= command.id %> fixtures.json --check',
    '<%= config.bin %> <%= command.id %> fixtures.json | jq -r \'select(.name == "order") | .record.id\'',
  ]

  static override args = {
    file: Args.string({description: 'fixtures file (JSON), or - to read it from stdin', required: true}),
  }

  static override flags = {
    name: localGatewayName(),
    check: Flags.boolean({description: 'check the file and send nothing'}),
  }

  protected async input(): Promise<SeedInput> {
    const {args, flags} = await this.parse(SandboxSeed)
    await useLocalGateway(this.factory, flags.name)
    const {readSeedFile, checkSeedFile, datesSteps} = await import('../../seed/file.js')
    const {text, source} = await readSeedFile(args.file, this.io)
    // A step's at is judged by the gateway's today (a local gateway's clock may have been moved on):
    // asked only of a file that dates a step, so --check of any other needs no gateway.
    const here = datesSteps(text) ? await this.factory.gatewayTime() : undefined
    return {steps: checkSeedFile(text, source, here), source, check: flags.check}
  }

  protected async operate({steps, source, check}: SeedInput) {
    if (check) {
      this.io.err(`${source}: ${steps.length} ${steps.length === 1 ? 'step' : 'steps'}, every one well-formed; nothing was sent.\n`)
      return
    }
    const [{seed}, {seedPrinter}] = await Promise.all([import('../../operations/seed.js'), import('../../output/seed.js')])
    const target = await this.factory.target()
    // Every step may write: a read-only profile is refused before the first look-up, not at its first write.
    const {refuseWhenReadOnly} = await import('../../cli/live-safety.js')
    refuseWhenReadOnly(target, this.factory.commandName)
    const {environment} = target
    if (environment !== 'sandbox') {
      const {UsageError} = await import('../../errors.js')
      throw new UsageError('gw sandbox seed creates records on a sandbox only, and the profile in force is live: nothing was sent', 'Use the local gateway (gw sandbox start; gw profile use local) or another sandbox profile with --profile.')
    }
    const print = seedPrinter(this.io, {json: this.factory.flags.json})
    const [deps, {recordMade}] = await Promise.all([this.factory.deps(), import('../../lists/refunds-of-purchase.js')])
    const recordRefund = (sent: Parameters<typeof recordMade>[0], transactionId: string) => recordMade(sent, transactionId, this.factory, deps.client)
    print.summary(await seed(steps, {environment, source, recordRefund}, deps, print.step))
  }
}

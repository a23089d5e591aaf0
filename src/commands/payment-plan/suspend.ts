import {type PlanChange, PlanStatusCommand} from '../../cli/plan-status-command.js'

export default class PaymentPlanSuspend extends PlanStatusCommand {
  static override summary = 'Suspend a payment plan: its scheduled payments are dropped until it is activated'
  static override description = 'The plan stays, Suspended, with the payments it has made; those to come are dropped. gw payment-plan activate makes a new schedule. On a live profile gw asks you to type the id first (--yes skips that).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> plan-42',
    '<%= config.bin %> <%= command.id %> plan-42 --json',
  ]

  // Its own, not inherited: oclif's parse reads a command's own static fields.
  static override args = PlanStatusCommand.args

  protected readonly change: PlanChange = 'Suspended'
}

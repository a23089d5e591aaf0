import {type PlanChange, PlanStatusCommand} from '../../cli/plan-status-command.js'

export default class PaymentPlanCancel extends PlanStatusCommand {
  static override summary = 'Cancel a payment plan for good: no more payments'
  static override description = 'The plan stays, Cancelled, with the payments it has made; it cannot be activated again. On a live profile gw asks you to type the id first (--yes skips that).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> plan-42',
    '<%= config.bin %> <%= command.id %> plan-42 --json',
  ]

  // Its own, not inherited: oclif's parse reads a command's own static fields.
  static override args = PlanStatusCommand.args

  protected readonly change: PlanChange = 'Cancelled'
}

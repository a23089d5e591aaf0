import {type PlanChange, PlanStatusCommand} from '../../cli/plan-status-command.js'

export default class PaymentPlanActivate extends PlanStatusCommand {
  static override summary = 'Activate a suspended payment plan: a new schedule from today or its start date'
  static override description = 'Its payments to come are scheduled again, with new ids, numbered on from those it has made. A cancelled plan cannot be activated. On a live profile gw asks you to type the id first (--yes skips that).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> plan-42',
    '<%= config.bin %> <%= command.id %> plan-42 --json',
  ]

  // Its own, not inherited: oclif's parse reads a command's own static fields.
  static override args = PlanStatusCommand.args

  protected readonly change: PlanChange = 'Active'
}

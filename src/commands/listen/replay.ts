import {Args} from '@oclif/core'
import {GwCommand} from '../../cli/gw-command.js'
import * as webhookFlags from '../../cli/webhook-flags.js'
import {renderWarning} from '../../output/warning.js'
import type {ReplayOptions} from '../../webhooks/replay.js'

/** What is replayed, and to where: the proxy and --json are the Factory's. */
type ReplayInput = Omit<ReplayOptions, 'proxy' | 'json'>

export default class ListenReplay extends GwCommand<ReplayInput> {
  static override summary = 'Send events saved by gw listen --save to your app again'
  static override description = `Sends the events in FILE one after another, in the order they were received, with the headers the gateway sent, and prints your app's status for each. Each is signed as gw listen signs its forwards: Gw-Signature, with gw listen --print-secret's secret. So FILE must be yours alone to write, as gw listen --save makes it.
An event your app does not accept (not 2xx, or no answer) is reported and the rest still go; the command then exits 1.`

  static override printsJson = true

  static override examples = [
    '<%= config.bin %> <%= command.id %> events.ndjson --forward-to http://localhost:3000/webhooks',
    '<%= config.bin %> <%= command.id %> events.ndjson --forward-to http://localhost:3000/webhooks --events "charge:failed,charge:retry"',
  ]

  static override args = {
    file: Args.string({description: 'NDJSON file written by gw listen --save', required: true}),
  }

  static override flags = {
    'forward-to': webhookFlags.forwardTo({required: true, description: 'URL of your app to send the saved events to'}),
    'forward-timeout': webhookFlags.forwardTimeout,
    events: webhookFlags.events,
  }

  protected async input(): Promise<ReplayInput> {
    const {args, flags} = await this.parse(ListenReplay)
    return {file: args.file, forwardTo: flags['forward-to'], forwardTimeoutMs: flags['forward-timeout'] * 1000, events: flags.events ?? []}
  }

  protected async operate(input: ReplayInput) {
    const [{replay}, {signingSecret}] = await Promise.all([import('../../webhooks/replay.js'), import('../../webhooks/signing.js')])
    const said = (why: string) => renderWarning(this.io, why)
    await replay({...input, proxy: await this.factory.proxy(), signingSecret: await signingSecret(this.factory.configDir, said), json: this.factory.flags.json}, this.io)
  }
}

import {Flags} from '@oclif/core'
import {UsageError} from '../../errors.js'
import {localGatewayName} from '../../cli/flags.js'
import {useLocalGateway} from '../../cli/local-gateway.js'
import {ExitStatus, GwCommand} from '../../cli/gw-command.js'
import {requestLogColumns} from '../../output/columns.js'
import type {RequestLogFilter} from '../../operations/sandbox.js'
import type {StopSignalName} from '../../lib/platform.js'

/** Which requests, and whether to keep printing new ones. */
interface LogsInput {
  filter: RequestLogFilter
  follow: boolean
}

export default class SandboxLogs extends GwCommand<LogsInput> {
  static override summary = 'Show the requests the local gateway answered, and follow new ones'
  static override description = `Every request your app (or gw) made to the local gateway, oldest first: time, merchant, method, path, status, milliseconds, the reference the body gave, its card number masked, the gateway's first error and the request id. Bodies are never shown or kept whole: no CVV, token or password reaches the log.
--follow keeps printing new requests as they are answered, until Ctrl-C. A pipe gets one JSON line per request; so does --json on a terminal, pretty-printed.
Talks to the gateway of the profile in force (gw sandbox start registers it as "local"), or with --name NAME to the local gateway started with that --name. The gateway also appends the log to a file (gw sandbox status names it), rotated at 5 MiB.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --limit 5',
    '<%= config.bin %> <%= command.id %> --status 4xx,5xx --json | jq -r .error',
    '<%= config.bin %> <%= command.id %> --path /v1.0/purchases --merchant TEST',
    {description: 'Print new requests as your app makes them, until Ctrl-C', command: '<%= config.bin %> <%= command.id %> --follow'},
  ]

  // --follow stops on Ctrl-C as a service does: quietly, once the page it has is printed. Its
  // stdout is then checked here, as the base class does for other commands.
  static override handlesSignals = true

  static override flags = {
    name: localGatewayName(),
    follow: Flags.boolean({char: 'f', description: 'keep printing new requests as they are answered, until Ctrl-C'}),
    status: Flags.custom<string[]>({
      description: 'only these statuses: a class (4xx), a status (404), or several separated by commas',
      parse: async (input) => {
        const {StatusFilter} = await import('../../api/schemas/sandbox-control.js')
        const parsed = StatusFilter.safeParse(input)
        if (!parsed.success) throw new UsageError(`--status ${parsed.error.issues[0]?.message}, not "${input}"`, 'For example --status 4xx, --status 404 or --status 4xx,503.')
        return parsed.data
      },
    })(),
    path: Flags.string({description: 'only requests whose path starts with this, such as /v1.0/purchases'}),
    merchant: Flags.string({description: 'only the requests of this merchant (its username)'}),
    limit: Flags.integer({char: 'L', description: 'how many of the latest requests to show (with --follow, before the new ones)', default: 30, min: 1, max: 5000}),
  }

  static override columns = requestLogColumns

  protected async input(): Promise<LogsInput> {
    const {flags} = await this.parse(SandboxLogs)
    await useLocalGateway(this.factory, flags.name)
    return {filter: {status: flags.status, path: flags.path, merchant: flags.merchant, limit: flags.limit}, follow: flags.follow}
  }

  protected async operate({filter, follow}: LogsInput) {
    const [operations, {requestLogPrinter}] = await Promise.all([import('../../operations/sandbox.js'), import('../../output/request-log.js')])
    const print = requestLogPrinter(this.io, this.factory.render)
    if (!follow) {
      const page = await operations.requestLog(filter, await this.factory.deps())
      if (page.entries.length === 0) this.io.err('No requests to show.\n')
      print(page)
      return this.reportBrokenStdout()
    }
    const stopped = new AbortController()
    // A reader gone (`| head -5`) or a full disk: no more polling; exit 141 (silent), or 1 saying so.
    this.io.onOutClosed(() => stopped.abort())
    let received: StopSignalName | undefined
    const stop = (signal: StopSignalName) => {
      received = signal
      stopped.abort()
    }
    const {serviceSignals} = this.factory.platform
    for (const signal of serviceSignals) process.once(signal, stop)
    try {
      await operations.followRequestLog(filter, await this.factory.deps(), print, stopped.signal)
    } finally {
      for (const signal of serviceSignals) process.off(signal, stop)
    }
    if (received === undefined) return this.reportBrokenStdout()
    return new ExitStatus(received === 'SIGINT' ? 130 : 143)
  }
}

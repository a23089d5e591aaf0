import {Flags} from '@oclif/core'
import {allowHost, allowOrigin, sandboxName} from '../../cli/flags.js'
import {ExitStatus, GwCommand} from '../../cli/gw-command.js'
import {merchant, readMerchants} from '../../cli/merchant-input.js'
import {DEFAULT_SANDBOX} from '../../sandbox/server/names.js'
import {WEB_HOOK_ORDERS, type WebHookOrder} from '../../sandbox/domain/web-hook-order.js'
import type {LaunchRequest} from '../../cli/launch-sandbox.js'
import {grammarOf} from '../../cli/startup/argv.js'

export default class SandboxStart extends GwCommand<LaunchRequest> {
  static override summary = 'Start the local gateway'
  static override description = `A real HTTP server that answers the gateway's interface, so gw works with no gateway account.
Merchant TEST (token TEST) always exists; add more with --merchant (- or @FILE reads USER:TOKEN lines from stdin or a file, so no token is in argv, which ps shows to every user). It registers itself as the profile "local", made active when no other profile is.
Prints its URL on stdout. In the foreground Ctrl-C stops it; --detach runs it in the background until gw sandbox stop.
Only requests addressed to it get in (loopback names, IP addresses, --host, --allow-host), and none from a web page but --allow-origin ones, so pages in your browser cannot read or change it (DNS rebinding). Its controls (/_sandbox/) take only application/json.
With --host beyond loopback (0.0.0.0) nothing published gets in. Merchant TEST is refused unless --open-test-merchant. Its controls take the control token it prints (Authorization: Bearer; your own gw sends it from this machine), and a merchant's credentials only that merchant's sample events and requests.
--rate-limit N and --latency MS give it the live gateway's manners: past N requests a second a merchant is answered 429 with Retry-After, and every answer comes back about MS late, as over a network.
It lists web hooks oldest first, as the recorded live gateway did in 2017 and 2019. --web-hook-order newest lists them newest first, as it did in 2018.
Several run side by side by name. --name NAME starts another (one name whatever its case), on a free port unless --port says otherwise, with files of its own and a profile named NAME (gw --profile NAME ...). gw sandbox stop --name NAME stops it. A sandbox one and a live-mode one (--mode live) make a rehearsal of the live guards with no real money.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --detach',
    '<%= config.bin %> <%= command.id %> --port 9000 --state ./gateway.json --merchant - < merchants.txt',
    '<%= config.bin %> <%= command.id %> --mode live',
    '<%= config.bin %> <%= command.id %> --name rehearsal --mode live --detach',
    '<%= config.bin %> <%= command.id %> --webhook http://127.0.0.1:4000/hooks',
    '<%= config.bin %> <%= command.id %> --name busy --rate-limit 100 --latency 150 --detach',
  ]

  // The gateway closes itself on a signal, saving its state, rather than being aborted.
  static override handlesSignals = true

  static override flags = {
    name: sandboxName('run this local gateway beside the others under this name, its profile named after it (local when not given)'),
    port: Flags.integer({description: 'port to listen on; 0 picks a free one (a gateway with --name takes a free one unless given)', default: 8787, min: 0, max: 65535}),
    host: Flags.string({description: 'address to listen on', default: '127.0.0.1'}),
    'open-test-merchant': Flags.boolean({description: 'beyond loopback, let in merchant TEST with its published token: anyone who reaches the gateway can then use its records and controls'}),
    'allow-host': allowHost(),
    'allow-origin': allowOrigin(),
    state: Flags.string({description: 'file that keeps the gateway state across restarts'}),
    mode: Flags.string({description: 'answer as the sandbox or the live gateway', options: ['sandbox', 'live'], default: 'sandbox'}),
    dialect: Flags.string({description: "answer as the contract says (contract), or as the live gateway's recorded answers do where they differ (live)", options: ['contract', 'live'], default: 'contract'}),
    merchant: merchant(),
    webhook: Flags.url({description: 'address that receives every web hook event of merchant TEST from the start (repeatable)', multiple: true}),
    'processing-window-ms': Flags.integer({description: "the most it takes to process a request, which gw waits out before it calls a purchase it cannot find not sent (the live gateway's is a minute)", default: 2000, min: 0, max: 600_000}),
    'rate-limit': Flags.integer({description: "at most this many API requests a second for each merchant, as the live gateway limits them; past it, 429 with Retry-After and nothing done", min: 1, max: 100_000}),
    latency: Flags.integer({description: 'delay every API answer by about this many ms (give or take a quarter), the request done as it arrives, as over a network', min: 0, max: 60_000}),
    'web-hook-order': Flags.string({description: 'the order it lists web hooks in, which carry no dates: oldest first, or newest first', options: [...WEB_HOOK_ORDERS], default: 'oldest'}),
    'request-log': Flags.boolean({description: "log the requests answered, for gw sandbox logs: beside --state, else in gw's data folder", default: true, allowNo: true}),
    // Tests shorten the wait between delivery attempts to a receiver that is down.
    'webhook-backoff': Flags.integer({description: 'first wait in ms between web hook delivery attempts', min: 1, hidden: true}),
    detach: Flags.boolean({description: 'run in the background and return once it listens'}),
    restart: Flags.boolean({description: 'stop the local gateway already running first, to start one with these flags'}),
    // The background process of --detach: the parent registers the profile and reports.
    'detached-child': Flags.boolean({hidden: true}),
  }

  protected async input(): Promise<LaunchRequest> {
    const {flags} = await this.parse(SandboxStart)
    return {
      name: flags.name ?? DEFAULT_SANDBOX,
      port: flags.port,
      host: flags.host,
      openTestMerchant: flags['open-test-merchant'],
      allowedHosts: flags['allow-host'] ?? [],
      allowedOrigins: flags['allow-origin'] ?? [],
      mode: flags.mode as 'sandbox' | 'live',
      dialect: flags.dialect as 'contract' | 'live',
      stateFile: flags.state,
      merchants: await readMerchants(flags.merchant, this.io),
      webhooks: flags.webhook?.map((url) => url.href),
      webhookBackoffMs: flags['webhook-backoff'],
      requestLog: flags['request-log'],
      processingWindowMs: flags['processing-window-ms'],
      rateLimit: flags['rate-limit'],
      latencyMs: flags.latency,
      webHookOrder: flags['web-hook-order'] as WebHookOrder,
      detach: flags.detach,
      restart: flags.restart,
      detachedChild: flags['detached-child'],
      verbose: flags.verbose,
      argv: this.argv,
      grammar: grammarOf(SandboxStart),
    }
  }

  protected async operate(request: LaunchRequest) {
    const {launchSandbox} = await import('../../cli/launch-sandbox.js')
    const {io, dataDir, configDir, platform} = this.factory
    const launched = await launchSandbox(request, {io, dataDir, configDir, platform})
    return launched && new ExitStatus(launched.exitCode)
  }
}


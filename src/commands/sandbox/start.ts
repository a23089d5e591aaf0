import {Flags} from '@oclif/core'
import {join, resolve} from 'node:path'
import {UsageError} from '../../errors.js'
import {ExitStatus, GwCommand} from '../../gw-command.js'
import {isLoopbackHost} from '../../loopback.js'
import type {StartRequest} from '../../sandbox/daemon.js'
import {credentialPair} from '../../validate.js'

export default class SandboxStart extends GwCommand {
  static override summary = 'Start the local gateway'
  static override description = `A real HTTP server that answers the gateway's interface, so gw works with no gateway account.
Merchant TEST (token TEST) always exists; add more with --merchant. It registers itself as the profile "local", made active when no other profile is.
Prints its URL on stdout. In the foreground Ctrl-C stops it; --detach runs it in the background until gw sandbox stop.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --detach',
    '<%= config.bin %> <%= command.id %> --port 9000 --state ./gateway.json --merchant ACME:s3cret',
    '<%= config.bin %> <%= command.id %> --mode live',
    '<%= config.bin %> <%= command.id %> --webhook http://127.0.0.1:4000/hooks',
  ]

  // The gateway closes itself on a signal, saving its state, rather than being aborted.
  static override handlesSignals = true

  static override flags = {
    port: Flags.integer({description: 'port to listen on; 0 picks a free one', default: 8787, min: 0, max: 65535}),
    host: Flags.string({description: 'address to listen on', default: '127.0.0.1'}),
    state: Flags.string({description: 'file that keeps the gateway state across restarts'}),
    mode: Flags.string({description: 'answer as the sandbox or the live gateway', options: ['sandbox', 'live'], default: 'sandbox'}),
    merchant: Flags.custom<{username: string; token: string}>({description: 'another merchant as USER:TOKEN (repeatable)', multiple: true, parse: async (input) => parseMerchant(input)})(),
    webhook: Flags.url({description: 'address that receives every web hook event of merchant TEST from the start (repeatable)', multiple: true}),
    'request-log': Flags.boolean({description: "log the requests answered, for gw sandbox logs: beside --state, else in gw's data folder", default: true, allowNo: true}),
    // Tests shorten the wait between delivery attempts to a receiver that is down.
    'webhook-backoff': Flags.integer({description: 'first wait in ms between web hook delivery attempts', min: 1, hidden: true}),
    detach: Flags.boolean({description: 'run in the background and return once it listens'}),
    restart: Flags.boolean({description: 'stop the local gateway already running first, to start one with these flags'}),
    // The background process of --detach: the parent registers the profile and reports.
    'detached-child': Flags.boolean({hidden: true}),
  }

  async run() {
    const {flags} = await this.parse(SandboxStart)
    const daemon = await import('../../sandbox/daemon.js')
    const runtimeFile = join(this.config.dataDir, 'sandbox.json')
    const mode = flags.mode as 'sandbox' | 'live'
    const running = daemon.sandboxStatus(runtimeFile)
    if (running.state === 'running' && !flags['detached-child']) {
      const differences = daemon.differencesFrom(running.info, this.asked(flags))
      if (flags.restart) await this.stopRunning(running.info, runtimeFile)
      else if (differences.length > 0) {
        throw new UsageError(
          `The local gateway already running at ${running.info.url} (pid ${running.info.pid}) is not the one asked for: ${differences.join(', ')}`,
          'Stop it first with gw sandbox stop, or add --restart to stop it and start one with these flags.',
        )
      } else if (flags.detach) {
        await this.registerProfile(running.info.url, running.info.mode)
        this.io.err(`The local gateway is already running at ${running.info.url} (pid ${running.info.pid}).\n`)
        this.io.out(running.info.url + '\n')
        return
      }
    }

    if (flags.detach) {
      const logFile = join(this.config.dataDir, 'sandbox.log')
      // The same start in the foreground, in a process of its own that outlives this one.
      // Merchant tokens go through the environment (spawnDetached): argv is visible to every user in ps.
      const gw = (await import('../../startup/itself.js')).gwItself()
      const args = [...gw.args, 'sandbox', 'start', ...daemon.detachedArguments(this.argv), '--detached-child']
      let info
      try {
        info = await daemon.spawnDetached({execPath: gw.file, args, runtimeFile, logFile, merchants: flags.merchant ?? []})
      } catch (err) {
        throw new UsageError((err as Error).message, `Another program may hold port ${flags.port}; try --port 0 or another port.`)
      }
      await this.registerProfile(info.url, info.mode)
      const requests = info.requestLog ? `; requests logged to ${info.requestLog} (gw sandbox logs)` : ''
      this.io.err(`Local gateway running in the background at ${info.url} (pid ${info.pid}, ${info.mode} mode); its output in ${logFile}${requests}. Stop it with: gw sandbox stop\n`)
      this.io.out(info.url + '\n')
      return
    }

    const [{startSandbox}, {requestLogBeside}] = await Promise.all([import('../../sandbox/server.js'), import('../../sandbox/request-log.js')])
    // Only one sandbox owns the runtime file that status and stop read, and profile local: the first one running.
    const ownsRuntimeFile = daemon.sandboxStatus(runtimeFile).state !== 'running'
    const merchantList = flags['detached-child'] ? daemon.merchantsFromEnvironment() : (flags.merchant ?? [])
    // Another gateway without a state file of its own keeps its log in memory: gw's data folder holds the first one's.
    const requestLogFile = flags.state ? requestLogBeside(resolve(flags.state)) : ownsRuntimeFile ? join(this.config.dataDir, 'sandbox-requests.ndjson') : undefined
    const requestLog = flags['request-log'] ? {file: requestLogFile} : false
    let sandbox
    try {
      sandbox = await startSandbox({port: flags.port, host: flags.host, stateFile: flags.state && resolve(flags.state), mode, merchants: merchantList, webhooks: (flags.webhook ?? []).map((url) => url.href), webhookBackoffMs: flags['webhook-backoff'], requestLog, runtimeFile: ownsRuntimeFile ? runtimeFile : undefined, log: flags.verbose ? (line) => this.io.err(line + '\n') : undefined})
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if ((err as Error).name === 'StateFileError') throw new UsageError((err as Error).message, (err as {hint?: string}).hint ?? 'Pick another --state file: gw never overwrites a file it cannot read.')
      if (code === 'EADDRINUSE') throw new UsageError(`Port ${flags.port} on ${flags.host} is already in use`, 'Is a local gateway already running (gw sandbox status)? Or pick another --port, 0 for any free one.')
      if (code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UsageError(`Cannot listen on ${flags.host}:${flags.port} (${code})`, 'Pick another --host or --port.')
      throw err
    }
    if (!flags['detached-child'] && ownsRuntimeFile) await this.registerProfile(sandbox.url, mode)
    else if (!ownsRuntimeFile) {
      this.io.err(`Another local gateway is running (gw sandbox status); profile "local" stays pointed at it. Reach this one with GW_BASE_URL=${sandbox.url} GW_USERNAME=TEST GW_TOKEN=TEST.\n`)
    }
    const merchants = ['TEST', ...merchantList.map((m) => m.username)].join(', ')
    const logged = !flags['request-log'] ? '; no request log' : requestLogFile ? `; request log ${requestLogFile}` : '; request log in memory'
    this.io.err(`Local gateway listening on ${sandbox.url} (${mode} mode; merchants ${merchants}${flags.state ? `; state in ${flags.state}` : ''}${logged}). Ctrl-C stops it.\n`)
    this.io.out(sandbox.url + '\n')
    if (!isLoopbackHost(flags.host)) {
      this.io.err(`Warning: listening on ${flags.host} makes the local gateway reachable from other machines.\n`)
    }
    const received = await daemon.closeOnSignal(() => sandbox.close())
    this.io.err('Local gateway stopped.\n')
    // Ctrl-C is how a foreground gateway is meant to stop: 130 as design.md §4 says, quietly.
    return new ExitStatus(received === 'SIGINT' ? 130 : 0)
  }

  /** What this start asked for in so many words: a default left as it is matches whatever is running. */
  private asked(flags: {port: number; host: string; mode: string; state?: string; webhook?: URL[]; merchant?: {username: string}[]; 'request-log': boolean}): StartRequest {
    const given = (name: string) => this.argv.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))
    return {
      ...(given('port') ? {port: flags.port} : {}),
      ...(given('host') ? {host: flags.host} : {}),
      ...(given('mode') ? {mode: flags.mode as 'sandbox' | 'live'} : {}),
      ...(flags.state === undefined ? {} : {stateFile: resolve(flags.state)}),
      ...(flags.webhook ? {webhooks: flags.webhook.map((url) => url.href)} : {}),
      ...(flags.merchant ? {merchants: flags.merchant.map((merchant) => merchant.username)} : {}),
      ...(given('request-log') || given('no-request-log') ? {requestLog: flags['request-log']} : {}),
    }
  }

  private async stopRunning(info: {pid: number; url: string}, runtimeFile: string): Promise<void> {
    const {stopProcess, removeRuntimeFile} = await import('../../sandbox/daemon.js')
    await stopProcess(info.pid)
    removeRuntimeFile(runtimeFile, info.pid)
    this.io.err(`Stopped the local gateway at ${info.url} to start it again.\n`)
  }

  private async registerProfile(url: string, mode: 'sandbox' | 'live'): Promise<void> {
    const {saveLocalProfile} = await import('../../auth/local-profile.js')
    const {activated} = await saveLocalProfile(this.config.configDir, url, mode)
    if (activated) this.io.err('Profile "local" is now active: gw commands talk to this gateway as merchant TEST.\n')
  }
}

function parseMerchant(input: string): {username: string; token: string} {
  const pair = credentialPair(input)
  if (!pair) throw new UsageError(`--merchant must be USER:TOKEN, got "${input}"`, 'For example --merchant ACME:s3cret.')
  if (pair.username === 'TEST') throw new UsageError('--merchant TEST already exists (TEST:TEST)', 'Pick another username.')
  return {username: pair.username, token: pair.secret}
}

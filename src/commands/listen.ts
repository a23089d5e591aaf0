import {Flags} from '@oclif/core'
import {AuthError, GwError, UsageError} from '../errors.js'
import {allowHost, allowOrigin} from '../cli/flags.js'
import {ExitStatus, GwCommand} from '../cli/gw-command.js'
import {isLoopbackUrl} from '../lib/loopback.js'
import * as webhookFlags from '../cli/webhook-flags.js'
import {renderWarning} from '../output/warning.js'
import type {ListenOptions} from '../webhooks/listen.js'

/**
 * Where and how to listen, as the flags say; --register: whether to register with the gateway
 * (undefined: only with a local gateway's profile). --json and the proxy are the Factory's.
 */
type ListenInput = (Omit<ListenOptions, 'json' | 'proxy' | 'environment' | 'register'> & {register?: boolean}) | {secret: 'print' | 'rotate'}

export default class Listen extends GwCommand<ListenInput> {
  static override summary = "Receive the gateway's web hooks here and print each event as it arrives"
  static override description = `Prints where it listens on stderr, then one line per event on stdout: time, event, mode, the subscription, customer and purchase ids, and amount and outcome for charges. With --json, one JSON object per event per line ({"received_at","event","mode","payload","headers"}).
Each delivery is acknowledged with 200 once it is printed (and saved, with --save). With --forward-to it is passed on to your app and answered with your app's status, so a failing app means the gateway delivers it again.
With the profile of a local gateway (gw sandbox start) it registers itself, as stripe listen does, and says so; --register does the same with any gateway. A registration left by a gw listen that was killed is removed by the next one.
Only deliveries that prove they came from the gateway are taken. A registration it makes gets fresh random credentials (HTTP Basic), and --auth names those of one made elsewhere. Anything else is 401, never forwarded. With neither, it says that anyone on this machine can deliver. As gw sandbox does, it refuses requests addressed to another name (--allow-host) or sent by a web page (--allow-origin).
With --forward-to, each delivery that carried the gateway's credentials (its registration's, or --auth) is signed, as stripe listen does. So your app can check that the gateway sent it through gw listen. The header is Gw-Signature: t=TIME,v1=SIGNATURE, the hex HMAC-SHA256 of TIME (Unix seconds), a dot and the body, keyed by your signing secret. gw listen prints the secret at start; it is the same every run. --print-secret prints it alone, --rotate-secret makes a new one. docs/subscriptions-and-webhooks.md has an app that checks it.
Ctrl-C stops accepting, finishes the deliveries in flight, removes the registration and exits 130; SIGTERM does the same and exits 0.`

  static override printsJson = true

  static override examples = [
    '<%= config.bin %> <%= command.id %> --register',
    '<%= config.bin %> <%= command.id %> --json --events "charge:*" | jq .payload',
    '<%= config.bin %> <%= command.id %> --forward-to http://localhost:3000/webhooks --save events.ndjson',
    {description: 'The secret your app checks Gw-Signature with', command: 'GW_LISTEN_SECRET=$(<%= config.bin %> <%= command.id %> --print-secret) node app.mjs'},
    {description: 'A new secret in place of the old (then give your app the new one)', command: '<%= config.bin %> <%= command.id %> --rotate-secret'},
    'echo "hooks:s3cret" | <%= config.bin %> <%= command.id %> --port 0 --auth - --register',
  ]

  // Ctrl-C drains the deliveries in flight (webhooks/listen.ts) rather than aborting.
  static override handlesSignals = true

  static override flags = {
    port: Flags.integer({description: 'port to listen on; 0 picks a free one', default: 4242, min: 0, max: 65535}),
    host: Flags.string({description: 'address to listen on; anything but loopback is reachable from other machines', default: '127.0.0.1'}),
    'allow-host': allowHost(),
    'allow-origin': allowOrigin(),
    path: Flags.string({description: 'path deliveries are posted to', default: '/', parse: async (input) => (input.startsWith('/') ? input : '/' + input)}),
    events: webhookFlags.events,
    'forward-to': webhookFlags.forwardTo(),
    'forward-timeout': webhookFlags.forwardTimeout,
    'ack-always': Flags.boolean({description: "answer 200 even when your app fails, so the gateway does not deliver again", dependsOn: ['forward-to']}),
    save: Flags.string({description: 'append every event, as received, to this NDJSON file (gw listen replay reads it)'}),
    register: Flags.boolean({
      description: 'register this receiver with the gateway in force, and remove it on exit; with a local gateway (gw sandbox start) done unasked, --no-register to leave it alone',
      allowNo: true,
    }),
    auth: webhookFlags.auth(),
    'auth-file': webhookFlags.authFile(),
    'print-secret': Flags.boolean({description: 'print the signing secret forwards are signed with, and exit'}),
    'rotate-secret': Flags.boolean({description: 'make a new signing secret in place of the old, print it, and exit', exclusive: ['print-secret']}),
    'receive-timeout': Flags.integer({description: 'seconds a sender may take to send one delivery', default: 10, min: 1}),
  }

  protected async input(): Promise<ListenInput> {
    const {flags} = await this.parse(Listen)
    if (flags['print-secret'] || flags['rotate-secret']) return {secret: flags['rotate-secret'] ? 'rotate' : 'print'}
    return {
      host: flags.host,
      port: flags.port,
      path: flags.path,
      allowedHosts: flags['allow-host'] ?? [],
      allowedOrigins: flags['allow-origin'] ?? [],
      auth: await webhookFlags.readAuth(flags.auth ?? flags['auth-file'], this.io, this.factory.commandName),
      events: flags.events ?? [],
      forwardTo: flags['forward-to'],
      forwardTimeoutMs: flags['forward-timeout'] * 1000,
      ackAlways: flags['ack-always'],
      save: flags.save,
      receiveTimeoutMs: flags['receive-timeout'] * 1000,
      register: flags.register,
    }
  }

  protected async operate(input: ListenInput) {
    const said = (why: string) => renderWarning(this.io, why)
    if ('secret' in input) {
      const {rotateSigningSecret, signingSecret, signingSecretFile} = await import('../webhooks/signing.js')
      if (input.secret === 'print') return void this.io.out(`${await signingSecret(this.factory.configDir, said)}\n`)
      this.io.out(`${await rotateSigningSecret(this.factory.configDir)}\n`)
      this.io.err(`A new signing secret is kept in ${signingSecretFile(this.factory.configDir)}: give your apps the new one; a gw listen running now signs with the old one until it is started again.\n`)
      return
    }
    const {register, ...options} = input
    // Made (once, kept) only when something is forwarded: gw's config folder is written to no sooner.
    const signing = options.forwardTo === undefined ? undefined : await import('../webhooks/signing.js').then(({signingSecret}) => signingSecret(this.factory.configDir, said))
    const [{listen}, webhooks, {isAbandonedListen, listenHookName}, {isLocalGatewayProfile}, {forgetRemoved, makeRecorded}] = await Promise.all([
      import('../webhooks/listen.js'),
      import('../operations/webhooks.js'),
      import('../webhooks/registration.js'),
      import('../auth/local-profile.js'),
      import('../webhooks/hook-order.js'),
    ])
    // Without --register a profile is optional: it only tells which mode deliveries should be in.
    const credentials = await this.factory.credentials().catch((err) => (err instanceof AuthError && !register ? undefined : Promise.reject(err)))
    // A local gateway's profile: registered unasked, as stripe listen does (--no-register: not).
    const local = credentials !== undefined && isLocalGatewayProfile(credentials)
    const registering = credentials !== undefined && (register ?? local)
    const {requestGuard} = await import('../cli/live-safety.js')
    // gw listen removes only what gw listens registered: a live profile's confirmation is for what a person names.
    const guard = registering ? requestGuard({target: credentials, commandId: this.factory.commandName, yes: true, io: this.io, prompter: () => this.factory.prompter(), confirmedUpFront: true}) : undefined
    const client = registering ? await this.factory.clientFor(credentials, guard) : undefined
    const deps = client && {client, io: this.io}
    // gw's record of the hooks it made (webhooks/hooks-made.ts): where they stand on a list tells the gateway's order.
    const made = {dataDir: this.factory.dataDir, io: this.io, target: async () => credentials!}
    try {
      const code = await listen(
        {
          ...options,
          signingSecret: signing,
          json: this.factory.flags.json,
          proxy: await this.factory.proxy(),
          environment: credentials?.environment,
          stopSignals: this.factory.platform.serviceSignals,
          register: deps && {
            create: async (address, hookAuth) => {
              const hook = await makeRecorded(made, deps.client, () => webhooks.createWebHook({name: listenHookName(address), address, events: [], environment: credentials?.environment ?? 'sandbox', auth: hookAuth}, deps))
              if (typeof hook.id !== 'string' || !hook.id) throw new UsageError('The gateway registered the web hook but sent no id back, so gw listen could not remove it on exit')
              return hook.id
            },
            remove: async (id) => {
              await webhooks.deleteWebHook(id, deps)
              await forgetRemoved(made, id)
            },
            // Only a gateway on this machine: a listen's process and address mean something only here.
            ...(isLoopbackUrl(credentials!.baseUrl)
              ? {
                  removeAbandoned: async (own: string) => {
                    const removed = await webhooks.removeWebHooksWhere((hook) => isAbandonedListen(hook, own), deps)
                    for (const hook of removed) await forgetRemoved(made, String(hook.id))
                    return removed
                  },
                }
              : {}),
            ...(register === undefined ? {automatic: {gateway: credentials!.baseUrl}} : {}),
          },
        },
        this.io,
      )
      // --jq failed on an event (output/jq.ts): gw listen stopped there, and says why.
      const failure = this.io.outFailure()
      if (failure instanceof GwError) throw failure
      // A reader gone stops it as a signal does. stdout that takes no more (a full disk) is a
      // failure, told as every command tells it (exit 1), never the 0 a service manager takes for a stop.
      if (failure && failure.code !== 'EPIPE') return this.reportBrokenStdout()
      return new ExitStatus(code)
    } finally {
      await client?.close()
    }
  }
}

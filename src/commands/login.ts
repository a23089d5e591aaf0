import {Flags} from '@oclif/core'
import {profileColumns} from '../auth/columns.js'
import {GwCommand} from '../cli/gw-command.js'
import {renderWarning} from '../output/warning.js'
import type {LoginFlags} from '../auth/login.js'

export default class Login extends GwCommand<LoginFlags> {
  static override summary = 'Save a profile: gateway, user and API token'
  static override description = `On a terminal it asks for whatever the flags leave out, the token masked. Without one every value comes from flags and the token from stdin (--token-stdin): a token is never an argument.
The credentials are tried against the gateway first: a wrong token saves nothing and exits 4. The profile's environment is the mode the gateway reports; a --environment that says otherwise saves nothing and exits 6. The token goes into the OS keychain (service gw, account the profile name), the rest into config.json.
A sandbox profile becomes the active one. A live profile becomes active only with --activate, or when you say so at the terminal. Without a terminal it is saved, the active profile left as it was, and gw says how to switch (gw profile use NAME). --no-activate saves any profile without switching.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --profile shop-live --environment live --base-url https://gateway.example.com --username SHOP',
    'printenv GATEWAY_TOKEN | <%= config.bin %> <%= command.id %> --profile ci --base-url https://sandbox.gateway.example.com --username SHOP --token-stdin',
    '<%= config.bin %> <%= command.id %> --profile support --read-only',
    'printenv LIVE_TOKEN | <%= config.bin %> <%= command.id %> --profile shop-live --base-url https://gateway.example.com --username SHOP --token-stdin --activate',
  ]

  static override flags = {
    environment: Flags.string({description: 'which gateway the profile talks to; checked against the mode the gateway reports', options: ['sandbox', 'live']}),
    'base-url': Flags.string({description: "the gateway's base URL"}),
    username: Flags.string({description: 'gateway username'}),
    'token-stdin': Flags.boolean({description: 'read the API token from stdin'}),
    'read-only': Flags.boolean({description: 'refuse every command that changes something (for support staff)'}),
    'insecure-storage': Flags.boolean({description: 'keep the token in a 0600 file instead of the OS keychain'}),
    activate: Flags.boolean({description: 'make it the active profile (a live one is asked about, or left inactive without a terminal); --no-activate never', allowNo: true}),
  }

  static override columns = profileColumns

  protected async input(): Promise<LoginFlags> {
    const {flags} = await this.parse(Login)
    return {
      profile: flags.profile,
      environment: flags.environment as 'sandbox' | 'live' | undefined,
      baseUrl: flags['base-url'],
      username: flags.username,
      tokenStdin: flags['token-stdin'],
      readOnly: flags['read-only'],
      insecureStorage: flags['insecure-storage'],
      activate: flags.activate,
    }
  }

  protected async operate(flags: LoginFlags) {
    const {login} = await import('../auth/login.js')
    const record = await login(flags, {
      configDir: this.factory.configDir,
      io: this.io,
      prompter: () => this.factory.prompter(),
      tokens: await this.factory.tokenStores(),
      clientFor: (credentials) => this.factory.clientFor(credentials),
    })
    if (!record) return undefined
    this.io.err(`Logged in: profile ${record.name} is ${record.active ? 'active' : 'saved'}; its token is in ${record.secret === 'file' ? 'a plain file' : 'the OS keychain'}.\n`)
    if (record.secret === 'file') {
      const {insecureCredentialsFile, plainFileWarning} = await import('../auth/token-store.js')
      renderWarning(this.io, plainFileWarning(record.name, insecureCredentialsFile(this.factory.configDir)))
    }
    return record
  }
}

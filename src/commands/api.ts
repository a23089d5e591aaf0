import {Args, Flags} from '@oclif/core'
import {concurrency, DEFAULT_CONCURRENCY, maxPages} from '../cli/flags.js'
import {GwCommand} from '../cli/gw-command.js'
import type {ApiRequest} from '../operations/api.js'

interface ApiInput {
  request: ApiRequest
  /** --paginate: the pages asked for ahead, and the most read. */
  paginate?: {ahead: number; maxPages?: number}
  /** The body was given in argv (--data '{...}'): a live profile refuses a card in it. */
  inline: boolean
}

export default class Api extends GwCommand<ApiInput> {
  static override summary = 'Send any request to the gateway and print its answer as sent'
  static override description = `For what no command covers. The request goes with the profile's credentials, time-outs and --verbose log, and exits with the same codes as every command.
Its safety is that of the endpoint it names: a read-only profile refuses anything but a GET (a path gw does not know counts as a write unless it is a GET), a live profile asks you to type the amount of a purchase or refund and the id of a delete, and a purchase or refund is never sent twice: when its answer is lost, gw looks its reference up.
Prints the gateway's whole answer (the envelope) exactly as it came, followed by a newline. Without a METHOD, the request is a GET.
--paginate follows every page of a list path (offset and limit, as the gateway's libraries page) and prints its records as NDJSON, one line a record, in the gateway's order (oldest first), card numbers masked.`

  static override printsJson = true

  static override examples = [
    '<%= config.bin %> <%= command.id %> /v1.0/plans.json --query limit=5',
    '<%= config.bin %> <%= command.id %> /v1.0/purchases --paginate --query from=2026/11/01 | jq -r .reference',
    `<%= config.bin %> <%= command.id %> POST /v1.0/plans --data '{"name":"Gold","amount":2500,"reference":"gold-api","description":"Gold tier"}'`,
    '<%= config.bin %> <%= command.id %> GET /v1.0/plans/gold-api.json',
    // A card goes in a file, never in argv or an echo: both stay in shell history.
    '<%= config.bin %> <%= command.id %> POST /v1.0/purchases --data @purchase.json',
    '<%= config.bin %> <%= command.id %> GET /v1.0/purchases/api-order-1 | jq .response.message',
  ]

  static override args = {
    method: Args.string({description: 'HTTP method: GET (when left out), POST, PUT or DELETE, any case', required: true}),
    path: Args.string({description: 'path from the base URL on, e.g. /v1.0/plans.json'}),
  }

  static override flags = {
    data: Flags.string({description: 'request body as JSON: inline, @FILE to read a file, or - to read stdin'}),
    query: Flags.string({description: 'query parameter KEY=VALUE, added to the path; repeat for more', multiple: true}),
    paginate: Flags.boolean({description: 'every page of a list path, its records as NDJSON, one line a record', exclusive: ['data']}),
    concurrency: concurrency({dependsOn: ['paginate']}),
    'max-pages': maxPages({dependsOn: ['paginate']}),
  }

  protected async input(): Promise<ApiInput> {
    const {args, flags} = await this.parse(Api)
    const [{readData, readMethod, readPath, readQueryPair}, {UsageError}] = await Promise.all([import('../output/api-input.js'), import('../errors.js')])
    // `gw api PATH` is a GET, as gh api's; a METHOD alone is a PATH left out.
    const pathOnly = args.path === undefined && !/^(get|post|put|delete)$/i.test(args.method.trim())
    if (args.path === undefined && !pathOnly) throw new UsageError(`PATH is missing after ${args.method}`, 'For example gw api GET /v1.0/plans.json.')
    const method = pathOnly ? 'GET' : readMethod(args.method)
    const path = readPath(pathOnly ? args.method : args.path!)
    const query = (flags.query ?? []).map((pair) => readQueryPair(pair))
    // Messages and confirmations name the request itself: `gw api DELETE /v1.0/customers/071-C-1`.
    this.factory.commandName = `api ${method} ${path}`
    if (flags.paginate) {
      if (method !== 'GET') throw new UsageError(`--paginate follows the pages of a list, which is read with GET, not ${method}`)
      const {PAGING_PARAMETERS} = await import('../operations/paginate.js')
      const clash = query.find(([key]) => PAGING_PARAMETERS.includes(key))
      if (clash) throw new UsageError(`--paginate asks for each page itself: leave out --query ${clash[0]}=${clash[1]}`)
      return {request: {method, path, query}, paginate: {ahead: flags.concurrency ?? DEFAULT_CONCURRENCY, maxPages: flags['max-pages']}, inline: false}
    }
    const body = flags.data === undefined ? undefined : await readData(flags.data, method, this.io)
    const inline = flags.data !== undefined && flags.data !== '-' && !flags.data.startsWith('@')
    return {request: {method, path, query, ...(body === undefined ? {} : {body})}, inline}
  }

  protected async operate({request, paginate, inline}: ApiInput) {
    const [{holdsCard, sendRequest}, {renderBody, renderListing}, {UsageError}] = await Promise.all([import('../operations/api.js'), import('../output/render.js'), import('../errors.js')])
    if (paginate) {
      const {paginate: pages} = await import('../operations/paginate.js')
      await renderListing(this.io, pages(request, await this.factory.deps(), paginate), [], {json: true, ndjson: true})
      return undefined
    }
    if (inline && holdsCard(request.body) && (await this.factory.target()).environment === 'live') {
      throw new UsageError('On a live profile a card number or CVV is never taken from the command line (it lands in shell history and ps): nothing was sent', 'Give the body on stdin with --data -, or in a file with --data @FILE.')
    }
    const answer = await sendRequest(request, await this.factory.deps())
    renderBody(this.io, answer.text)
    if (answer.error) throw answer.error
    return undefined
  }
}

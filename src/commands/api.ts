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
  /** What of the body argv gave, when only part of it was (-F key=@file reads the rest from files). */
  inlineBody?: unknown
}

export default class Api extends GwCommand<ApiInput> {
  static override summary = 'Send any request to the gateway and print its answer as sent'
  static override description = `For what no command covers. The request goes with the profile's credentials, time-outs and --verbose log, and exits with the same codes as every command.
Its safety is that of the endpoint it names. A read-only profile refuses anything but a GET (a path gw does not know counts as a write unless it is a GET). A live profile asks you to type the amount of a purchase or refund and the id of a delete. A purchase or refund is never sent twice: when its answer is lost, gw looks its reference up. A refund it sends is recorded as gw's own, as refund create records its refunds: refund list --purchase and purchase get find it for certain.
Prints the gateway's whole answer (the envelope): to a pipe exactly as it came, followed by a newline; at a terminal pretty-printed and coloured (not with NO_COLOR), each value as written. Without a METHOD, the request is a GET, or a POST when fields are given; the METHOD goes before PATH or in -X/--method, as gh api takes it.
-f key=value adds a string field to a JSON body, -F key=value a typed one (true, false, null and whole numbers as JSON; @FILE the file's text, @- stdin's), as gh api's; with GET they go in the query string instead.
--paginate follows every page of a list path (offset and limit, as the gateway's libraries page) and prints its records as NDJSON, one line a record, in the order the gateway pages them (newest first), card numbers masked.`

  static override printsJson = true

  static override examples = [
    '<%= config.bin %> <%= command.id %> /v1.0/plans.json --query limit=5',
    '<%= config.bin %> <%= command.id %> /v1.0/purchases --paginate --query from=2026/11/01 | jq -r .reference',
    `<%= config.bin %> <%= command.id %> POST /v1.0/plans --data '{"name":"Gold","amount":2500,"reference":"gold-api","description":"Gold tier"}'`,
    '<%= config.bin %> <%= command.id %> GET /v1.0/plans/gold-api.json',
    '<%= config.bin %> <%= command.id %> -X PUT /v1.0/plans/gold-api.json -f description="Gold tier, yearly"',
    '<%= config.bin %> <%= command.id %> /v1.0/plans -f name=Silver -F amount=1500 -f reference=silver-api -f description=Silver',
    // A card goes in a file, never in argv or an echo: both stay in shell history.
    '<%= config.bin %> <%= command.id %> POST /v1.0/purchases --data @purchase.json',
    '<%= config.bin %> <%= command.id %> GET /v1.0/purchases/api-order-1 | jq .response.message',
  ]

  // oclif's own line reads METHOD [PATH], the arguments as it parses them: PATH is the one always given.
  static override usage = ['<%= command.id %> [METHOD] PATH [-X METHOD] [-f KEY=VALUE]... [-F KEY=VALUE]... [--data JSON|@FILE|-] [--query KEY=VALUE]... [--paginate] [flags]']

  static override args = {
    // Not required to oclif: with nothing given, what is missing is the PATH, said as such (input()).
    method: Args.string({description: 'HTTP method: GET (when left out), POST, PUT or DELETE, any case'}),
    path: Args.string({description: 'path from the base URL on, e.g. /v1.0/plans.json'}),
  }

  static override flags = {
    method: Flags.string({char: 'X', description: 'HTTP method: GET, POST, PUT or DELETE, any case (GET, or POST with fields, when left out)'}),
    'raw-field': Flags.string({char: 'f', description: 'a string field KEY=VALUE of the JSON body (of the query string with GET); repeat for more', multiple: true, multipleNonGreedy: true, exclusive: ['data']}),
    field: Flags.string({char: 'F', description: 'a typed field KEY=VALUE: true, false, null and whole numbers as JSON, @FILE a file\'s text, @- stdin\'s; repeat for more', multiple: true, multipleNonGreedy: true, exclusive: ['data']}),
    data: Flags.string({description: 'request body as JSON: inline, @FILE to read a file, or - to read stdin (at most 1 MiB, in UTF-8)'}),
    query: Flags.string({description: 'query parameter KEY=VALUE, added to the path; repeat for more', multiple: true, multipleNonGreedy: true}),
    paginate: Flags.boolean({description: 'every page of a list path, its records as NDJSON, one line a record', exclusive: ['data']}),
    concurrency: concurrency({dependsOn: ['paginate']}),
    'max-pages': maxPages({dependsOn: ['paginate']}),
  }

  protected async input(): Promise<ApiInput> {
    const {args: given, flags} = await this.parse(Api)
    const [{isMethod, readData, readFields, readMethod, readPath, readQueryPair, wordAfterPath}, {UsageError}] = await Promise.all([import('../output/api-input.js'), import('../errors.js')])
    if (given.method === undefined) throw new UsageError('PATH is missing', 'For example gw api /v1.0/plans.json, or gw api POST /v1.0/plans --data @plan.json.')
    const args = {method: given.method, path: given.path}
    const hasFields = (flags['raw-field'] ?? []).length + (flags.field ?? []).length > 0
    // `gw api PATH` is a GET (a POST with fields), as gh api's; a METHOD alone is a PATH left out.
    const pathOnly = args.path === undefined && !isMethod(args.method)
    // A path first (it has a slash) and a word after it: the word is one too many (PATCH /v1.0/plans is a METHOD gw refuses, said by readMethod).
    if (flags.method === undefined && args.path !== undefined && !isMethod(args.method) && args.method.includes('/')) throw wordAfterPath(args.method, args.path, flags.json)
    if (flags.method !== undefined && args.path !== undefined) throw new UsageError(`-X ${flags.method} gives the METHOD, so ${args.method} ${args.path} is one word too many`, `For example gw api -X ${flags.method} ${args.path}.`)
    if (args.path === undefined && !pathOnly && flags.method === undefined) throw new UsageError(`PATH is missing after ${args.method}`, 'For example gw api GET /v1.0/plans.json.')
    const method = flags.method === undefined ? (pathOnly ? (hasFields ? 'POST' : 'GET') : readMethod(args.method)) : readMethod(flags.method)
    const path = readPath(args.path ?? args.method)
    const fields = hasFields ? await readFields(flags['raw-field'] ?? [], flags.field ?? [], this.io) : undefined
    // With GET, fields are the query string, as gh api's.
    const fieldQuery = method === 'GET' && fields ? Object.entries(fields.body).map(([key, value]): [string, string] => [key, String(value)]) : []
    const query = [...(flags.query ?? []).map((pair) => readQueryPair(pair)), ...fieldQuery]
    // Messages and confirmations name the request itself: `gw api DELETE /v1.0/customers/071-C-1`.
    this.factory.commandName = `api ${method} ${path}`
    if (flags.paginate) {
      if (method !== 'GET') throw new UsageError(`--paginate follows the pages of a list, which is read with GET, not ${method}`)
      const {PAGING_PARAMETERS} = await import('../operations/paginate.js')
      const clash = query.find(([key]) => PAGING_PARAMETERS.includes(key))
      if (clash) throw new UsageError(`--paginate asks for each page itself: leave out --query ${clash[0]}=${clash[1]}`)
      return {request: {method, path, query}, paginate: {ahead: flags.concurrency ?? DEFAULT_CONCURRENCY, maxPages: flags['max-pages']}, inline: false}
    }
    if (fields && method !== 'GET') return {request: {method, path, query, body: fields.body}, inline: true, inlineBody: fields.inline}
    const body = flags.data === undefined ? undefined : await readData(flags.data, method, this.io)
    const inline = flags.data !== undefined && flags.data !== '-' && !flags.data.startsWith('@')
    return {request: {method, path, query, ...(body === undefined ? {} : {body})}, inline}
  }

  protected async operate({request, paginate, inline, inlineBody}: ApiInput) {
    const [{holdsCard, sendRequest}, {renderBody, renderListing}, {UsageError}] = await Promise.all([import('../operations/api.js'), import('../output/render.js'), import('../errors.js')])
    // The query's values come from the command line too (--query, and -f/-F with GET).
    const fromArgv = (inline && holdsCard(inlineBody ?? request.body)) || holdsCard((request.query ?? []).map(([, value]) => value))
    if (fromArgv && (await this.factory.target()).environment === 'live') {
      throw new UsageError('On a live profile a card number or CVV is never taken from the command line (it lands in shell history and ps): nothing was sent', 'Give the body on stdin with --data -, or in a file with --data @FILE.')
    }
    if (paginate) {
      const {paginate: pages} = await import('../operations/paginate.js')
      await renderListing(this.io, pages(request, await this.factory.deps(), paginate), [], {json: true, ndjson: true, ...(this.factory.render.filtered ? {filtered: true} : {})})
      return undefined
    }
    const deps = await this.factory.deps()
    const answer = await sendRequest(request, deps)
    // A refund sent by hand is gw's own as much as refund create's: recorded before it is reported, so the matcher calls it certain.
    if (answer.decided?.noun === 'refund') await (await import('../lists/refunds-of-purchase.js')).recordRefundSent(request.body, answer.decided, this.factory, deps.client)
    renderBody(this.io, answer.text)
    if (answer.error) throw answer.error
    return undefined
  }
}

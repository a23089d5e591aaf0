import {Args, Flags, Parser} from '@oclif/core'
import {describe, expect, it} from 'vitest'
import * as gwFlags from '../../../src/cli/flags.js'
import {askForMissing, missingFrom} from '../../../src/output/ask-missing.js'
import type {Prompter, Validate} from '../../../src/output/prompter.js'

/**
 * Answers in order, as inquirer would: an answer its validate refuses is shown the message and
 * the next answer is tried. Records every question, how it was asked, and what was refused.
 */
function scripted(answers: string[]) {
  const asked: string[] = []
  const refused: string[] = []
  const answer = async (how: string, message: string, validate?: Validate): Promise<string> => {
    asked.push(`${how}: ${message}`)
    for (;;) {
      const value = answers.shift()
      if (value === undefined) throw new Error(`unexpected question: ${message}`)
      const verdict = validate ? await validate(value) : true
      if (verdict === true) return value.trim()
      refused.push(verdict)
    }
  }
  const prompter: Prompter = {
    text: (message, options) => answer('text', message, options?.validate),
    secret: (message, validate) => answer('secret', message, validate),
    choose: async (message, choices) => {
      const value = await answer(`choose ${choices.join('|')}`, message)
      if (!choices.includes(value as never)) throw new Error(`${value} is not offered`)
      return value as never
    },
  }
  return {prompter, asked, refused}
}

const input = {
  flags: {
    amount: gwFlags.amount({required: true}),
    reference: gwFlags.reference({required: true}),
    currency: gwFlags.currency({default: 'AUD'}),
    'card-number': gwFlags.cardNumber({required: true}),
    frequency: gwFlags.frequency({required: true}),
    note: Flags.string({description: 'a note'}),
  },
  args: {event: Args.string({description: 'event to send', required: true, options: ['card:expired', 'charge:failed']})},
}

async function failedParse(argv: string[]): Promise<unknown> {
  try {
    await Parser.parse(argv, input)
  } catch (err) {
    return err
  }
  throw new Error('the parse did not fail')
}

describe('missingFrom', () => {
  it('names the required arguments and flags left out, in the order defined, and nothing given or defaulted', async () => {
    const missing = missingFrom(await failedParse(['--reference', 'r-1']))
    expect(missing.map(({kind, name}) => `${kind} ${name}`)).toEqual(['arg event', 'flag amount', 'flag card-number', 'flag frequency'])
  })

  it('is empty for a parse that failed for another reason, and for any other error', async () => {
    expect(missingFrom(await failedParse(['card:expired', '--amount', '1', '--reference', 'r', '--card-number', '4242424242424242', '--frequency', 'daily', '--bogus']))).toEqual([])
    expect(missingFrom(new Error('no'))).toEqual([])
  })
})

describe('askForMissing', () => {
  it('asks each, checked by the flag’s own parse, the card number masked, fixed sets as lists; the answers then parse', async () => {
    const argv = ['--reference', 'r-1']
    const missing = missingFrom(await failedParse(argv))
    const {prompter, asked, refused} = scripted(['charge:failed', 'ten', '1000', '4242 4242 4242 4241', '4242424242424242', 'Weekly'])
    const choicesFor = async (name: string) => gwFlags.choices[name]
    const answered = await askForMissing(missing, argv, {prompter, context: {}, choicesFor, dashesTyped: false})
    expect(asked).toEqual([
      'choose card:expired|charge:failed: event to send (EVENT)',
      'text: amount in the minor currency unit (1000 is 10.00 AUD) (--amount)',
      'secret: card number (only ever shown masked) (--card-number)',
      'choose Daily|Weekly|Fortnightly|Monthly|Quarterly|Bi-Annually|Annually: how often to bill: Daily, Weekly, Fortnightly, Monthly, Quarterly, Bi-Annually, Annually (any case) (--frequency)',
    ])
    expect(refused[0]).toBe(`--amount must be a positive whole number in the currency's minor unit, got "ten"`)
    expect(refused[1]).toMatch(/^--card-number /)
    expect(refused[1]).not.toContain('4242424242424241')
    const parsed = await Parser.parse(answered, input)
    expect(parsed.args.event).toBe('charge:failed')
    expect(parsed.flags).toMatchObject({amount: 1000, reference: 'r-1', currency: 'AUD', 'card-number': '4242424242424242', frequency: 'Weekly'})
  })

  it('refuses a blank answer and asks again', async () => {
    const missing = missingFrom(await failedParse(['card:expired', '--amount', '1', '--card-number', '4242424242424242', '--frequency', 'daily']))
    const {prompter, refused} = scripted(['  ', 'order-7'])
    const answered = await askForMissing(missing, [], {prompter, context: {}, choicesFor: async () => undefined, dashesTyped: false})
    expect(refused).toEqual(['A value is needed (Ctrl-C to stop).'])
    expect(answered).toEqual(['--reference=order-7'])
  })

  it('keeps an argument that starts with a dash an argument', async () => {
    const parser = {args: {id: Args.string({required: true})}, flags: {}}
    let err: unknown
    await Parser.parse([], parser).catch((error: unknown) => (err = error))
    const {prompter} = scripted(['-x1'])
    const answered = await askForMissing(missingFrom(err), [], {prompter, context: {}, choicesFor: async () => undefined, dashesTyped: false})
    expect(answered).toEqual(['--', '-x1'])
    expect((await Parser.parse(answered, parser)).args.id).toBe('-x1')
  })

  it('adds no second -- after one typed, which would be an argument itself', async () => {
    const parser = {args: {id: Args.string({required: true}), more: Args.string()}, flags: {}}
    let err: unknown
    await Parser.parse(['--'], parser).catch((error: unknown) => (err = error))
    const {prompter} = scripted(['-x1'])
    const answered = await askForMissing(missingFrom(err), ['--'], {prompter, context: {}, choicesFor: async () => undefined, dashesTyped: true})
    expect(answered).toEqual(['--', '-x1'])
    expect((await Parser.parse(answered, parser)).args).toEqual({id: '-x1', more: undefined})
  })
})

import {amount as amountRule} from '../api/schemas/rules.js'
import {GwError} from '../errors.js'
import {formatMoney} from './money.js'

// What a command needs to ask questions, apart from the prompts themselves (prompt.ts), which load
// inquirer and the terminal's text widths: a command that asks nothing, in a pipe, loads neither.

/** A check of an answer: true, or the message to show before asking again. */
export type Validate = (value: string) => string | true | Promise<string | true>

/**
 * How a question reads once answered, in the line that stays on the terminal: without its offer
 * (`Enter for ...`), which no longer applies, and the answer as what it means (`10.00 AUD`, not
 * `1000`).
 */
export interface ReadBack {
  question: string
  answer?: (answer: string) => string
}

/**
 * How an amount asked in the minor unit reads back once answered: as money (`12.50 AUD`, not
 * `1250`), with its currency where it is known. Every question that asks an amount reads it so.
 */
export function amountReadBack(question: string, currency: string | undefined): ReadBack {
  return {
    question,
    answer: (typed) => {
      const checked = amountRule(typed)
      return 'value' in checked ? formatMoney(checked.value, currency) : typed
    },
  }
}

/**
 * Questions asked on the terminal; answers come back trimmed. Tests hand commands a scripted one.
 * An answer is taken only once `validate` says true: a refusal is said under the question, which
 * stays to be answered again (never marked answered); a validate that throws ends the question
 * with that error (an answer refused for the last time).
 */
export interface Prompter {
  /** `retype`: a refused answer is cleared, to be typed afresh (a confirmation), rather than kept to mend. */
  text(message: string, options?: {default?: string; validate?: Validate; readBack?: ReadBack; retype?: boolean}): Promise<string>
  /** Typed without echo: tokens, card numbers, CVVs. */
  secret(message: string, validate?: Validate): Promise<string>
  choose<T extends string>(message: string, choices: readonly T[], defaultChoice?: T): Promise<T>
}

/** A flag's check as a prompt's validate: the error's message is shown and the question asked again. */
export function checkedBy(rule: (flag: string, input: string) => unknown, flag: string): Validate {
  return (value) => {
    try {
      rule(flag, value)
      return true
    } catch (err) {
      if (err instanceof GwError) return err.message
      throw err
    }
  }
}

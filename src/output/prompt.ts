import {GwError, InterruptedError} from '../errors.js'

/** A check of an answer: true, or the message to show before asking again. */
export type Validate = (value: string) => string | true | Promise<string | true>

/** Questions asked on the terminal; answers come back trimmed. Tests hand commands a scripted one. */
export interface Prompter {
  text(message: string, options?: {default?: string; validate?: Validate}): Promise<string>
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

/** inquirer, loaded only when a question is asked, writing to stderr so stdout stays for results. */
export async function terminalPrompter(): Promise<Prompter> {
  const {default: inquirer} = await import('inquirer')
  const prompt = inquirer.createPromptModule({output: process.stderr})
  const ask = async <T>(question: Record<string, unknown>): Promise<T> => {
    try {
      const answers = (await prompt([{name: 'answer', ...question}] as never)) as {answer: T}
      return answers.answer
    } catch (err) {
      if ((err as Error).name === 'ExitPromptError') throw new InterruptedError()
      throw err
    }
  }
  return {
    text: async (message, options = {}) => (await ask<string>({type: 'input', message, default: options.default, validate: options.validate})).trim(),
    secret: async (message, validate) => (await ask<string>({type: 'password', message, mask: '*', validate})).trim(),
    choose: (message, choices, defaultChoice) => ask({type: 'select', message, choices: choices.map((value) => ({value, name: value})), default: defaultChoice}),
  }
}

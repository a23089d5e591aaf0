import {InterruptedError} from '../errors.js'
import {holdsReplacement, NOT_UTF8} from '../lib/utf8.js'
import type {Prompter, ReadBack, Validate} from './prompter.js'
import {displayWidth, wrap} from './text-width.js'

/**
 * inquirer, loaded only when a question is asked, writing to stderr so stdout stays for results.
 * Its questions are broken at spaces to the terminal's width: inquirer breaks its lines at the
 * width wherever it falls, mid-word.
 */
export async function terminalPrompter(): Promise<Prompter> {
  const [{default: inquirer}, {styleText}] = await Promise.all([import('inquirer'), import('node:util')])
  const prompt = inquirer.createPromptModule({output: process.stderr})
  const width = () => process.stderr.columns || 80
  const ask = async <T>(question: Record<string, unknown> & {validate?: Validate}): Promise<T> => {
    // What a validate threw: the question ends with it, unanswered (inquirer would mark it answered, ✔, only on a true).
    let ended: {err: unknown} | undefined
    const validate = question.type === 'select' ? question.validate : utf8Checked(question.validate)
    await typedAheadDropped()
    const asking = prompt([
      {
        name: 'answer',
        ...question,
        ...(validate && {
          validate: async (value: string) => {
            try {
              return await validate(value)
            } catch (err) {
              ended = {err}
              asking.ui.close()
              // A refusal, as inquirer's answer is to end: the question is gone. (Left unsettled, its keypress never returned, and stdin kept gw running.)
              return err instanceof Error ? err.message : String(err)
            }
          },
        }),
      },
    ] as never)
    try {
      const answers = (await asking) as {answer: T}
      return answers.answer
    } catch (err) {
      if (ended) throw ended.err
      if ((err as Error).name === 'ExitPromptError') throw new InterruptedError()
      throw err
    }
  }
  const text = async (message: string, {default: offered, validate, readBack, retype}: {default?: string; validate?: Validate; readBack?: ReadBack; retype?: boolean} = {}) => {
    const columns = width()
    const asked = fitQuestion(message, columns, offered === undefined ? '' : `(${offered})`)
    const answered = readBack && fitQuestion(readBack.question, columns)
    const answer = await ask<string>({
      type: 'input',
      message: asked,
      default: offered,
      validate,
      theme: {
        ...(retype && {validationFailureMode: 'clear'}),
        style: {message: (question: string, status: string) => styleText('bold', status === 'done' && answered ? answered : question)},
      },
      transformer: (value: string, {isFinal}: {isFinal: boolean}) => {
        if (!isFinal || !answered) return value
        const meaning = readBack.answer?.(value.trim()) ?? value.trim()
        return (besideLastLine(answered, meaning, columns) ? '' : '\n') + styleText('cyan', meaning)
      },
    })
    return answer.trim()
  }
  return {
    text,
    secret: async (message, validate) => (await ask<string>({type: 'password', message: fitQuestion(message, width()), mask: '*', validate})).trim(),
    choose: (message, choices, defaultChoice) => ask({type: 'select', message: fitQuestion(message, width()), choices: choices.map((value) => ({value, name: value})), default: defaultChoice}),
  }
}

/**
 * The hold bin/typed-ahead.js took on the terminal as gw started, where a secret is to be asked:
 * what was typed before the first question is dropped, unechoed, and the terminal handed to it.
 */
async function typedAheadDropped(): Promise<void> {
  await ((globalThis as Record<symbol, unknown>)[Symbol.for('gw.typed-ahead')] as (() => Promise<void>) | undefined)?.()
}

/**
 * An answer holding U+FFFD (bytes the terminal sent that are not UTF-8, lib/utf8.ts) is asked
 * again, before the question's own check: it is not what was typed.
 */
export function utf8Checked(validate: Validate | undefined): Validate {
  return (value) => (holdsReplacement(value) ? `That ${NOT_UTF8}: type it again with the terminal set to UTF-8.` : (validate?.(value) ?? true))
}

const MONEY = /(\d) ([A-Z]{3})\b/g

/** inquirer's mark before a question (`?`, `✔`) and the space after it. */
const MARK = 2

/**
 * A question broken at spaces into lines that fit `width` after inquirer's mark; `then`, what
 * inquirer puts after it (the offered answer), goes to a line of its own when it would not fit
 * beside the last.
 */
export function fitQuestion(question: string, width: number, then = ''): string {
  // The mark and its space, as two characters the first word carries (a leading space would be
  // trimmed); an amount and its currency (`10.00 AUD`) are not broken apart.
  const lines = wrap('?'.repeat(MARK) + question.replace(MONEY, '$1\u00A0$2'), width).map((line) => line.replaceAll('\u00A0', ' '))
  lines[0] = lines[0]!.slice(MARK)
  const text = lines.join('\n')
  return then === '' || besideLastLine(text, then, width) ? text : text + '\n'
}

function besideLastLine(question: string, then: string, width: number): boolean {
  const lines = question.split('\n')
  return (lines.length === 1 ? MARK : 0) + displayWidth(lines.at(-1)!) + 1 + displayWidth(then) <= width
}

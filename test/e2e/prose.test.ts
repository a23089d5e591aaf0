import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {type Command, Config, loadHelpClass, settings} from '@oclif/core'
import {describe, expect, it} from 'vitest'
import {type Sentence, sentencesOf} from '../sentences.js'
import {isolatedHome, runGw} from './helpers.js'

// Prose a newcomer takes in once (design.md §3, guide.md). No sentence over 40
// words in README.md, the guides in docs/, or any command's help (its summary, description, flags,
// arguments and examples) and the help topics; and each command's description printed before its
// flags, as gh prints it.

const ROOT = join(import.meta.dirname, '..', '..')
const MOST = 40
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

/** Each sentence over the limit, where it is: what a failure prints, to be split. */
const tooLong = (where: string, sentences: Sentence[]) => sentences.filter((sentence) => sentence.words > MOST).map((sentence) => `${where}${sentence.line > 1 ? `:${sentence.line}` : ''} (${sentence.words} words): ${sentence.text}`)

interface ManifestText {
  summary?: string
  description?: string
}
interface ManifestCommand extends ManifestText {
  hidden?: boolean
  flags: Record<string, ManifestText & {hidden?: boolean}>
  args?: Record<string, ManifestText>
  examples?: (string | {description: string; command: string})[]
}
const manifest = JSON.parse(read('oclif.manifest.json')) as {commands: Record<string, ManifestCommand>}

describe('sentences of at most 40 words', () => {
  it('in README.md, CONTRIBUTING.md, every guide in docs/ and the records in bench/', () => {
    const markdown = (folder: string) => readdirSync(join(ROOT, folder)).filter((name) => name.endsWith('.md')).map((name) => `${folder}/${name}`)
    const files = ['README.md', 'CONTRIBUTING.md', ...markdown('docs'), ...markdown('bench')]
    expect(files.length).toBeGreaterThan(15)
    expect(files.flatMap((file) => tooLong(file, sentencesOf(read(file))))).toEqual([])
  })

  it("in every command's help: its summary, description, flags, arguments and examples", () => {
    const found: string[] = []
    const commands = Object.entries(manifest.commands).filter(([, command]) => !command.hidden)
    expect(commands.length).toBeGreaterThan(60)
    for (const [id, command] of commands) {
      const gw = `gw ${id.replaceAll(':', ' ')}`
      found.push(...tooLong(`${gw}: summary`, sentencesOf(command.summary ?? '')), ...tooLong(`${gw}: description`, sentencesOf(command.description ?? '', {lines: true})))
      for (const [name, flag] of Object.entries(command.flags)) if (!flag.hidden) found.push(...tooLong(`${gw} --${name}`, sentencesOf(`${flag.summary ?? ''}\n\n${flag.description ?? ''}`, {lines: true})))
      for (const [name, arg] of Object.entries(command.args ?? {})) found.push(...tooLong(`${gw} ${name.toUpperCase()}`, sentencesOf(arg.description ?? '')))
      for (const example of command.examples ?? []) if (typeof example !== 'string') found.push(...tooLong(`${gw}: example`, sentencesOf(example.description)))
    }
    expect(found).toEqual([])
  })

  it('in the help topics (gw help exit-codes, environment, test-cards, formatting) and the root help', async () => {
    const found: string[] = []
    for (const topic of ['exit-codes', 'environment', 'test-cards', 'formatting']) {
      const shown = await runGw(['help', topic], {env: {...isolatedHome(), COLUMNS: '1000'}})
      expect(shown.code, shown.stderr).toBe(0)
      found.push(...tooLong(`gw help ${topic}`, sentencesOf(shown.stdout, {columns: true})))
    }
    const root = await runGw(['--help'], {env: {...isolatedHome(), COLUMNS: '1000'}})
    found.push(...tooLong('gw --help', sentencesOf(root.stdout, {columns: true})))
    expect(found).toEqual([])
  })
})

describe("each command's description before its flags, as gh prints it", () => {
  it('gw refund create --help and gw report --help: the summary, the description, then USAGE and FLAGS; no DESCRIPTION section after them', async () => {
    for (const words of [['refund', 'create'], ['report']]) {
      const {stdout, code} = await runGw([...words, '--help'], {env: isolatedHome()})
      expect(code).toBe(0)
      const command = manifest.commands[words.join(':')]!
      const lines = stdout.split('\n')
      expect(lines[0]).toBe(command.summary)
      expect(lines[1]).toBe('')
      const firstWords = command.description!.split(/\s+/).slice(0, 3).join(' ')
      expect(lines[2]!.startsWith(firstWords), lines[2]).toBe(true)
      expect(stdout.indexOf('\nUSAGE\n')).toBeGreaterThan(stdout.indexOf(firstWords))
      expect(stdout.indexOf('\nFLAGS\n')).toBeGreaterThan(stdout.indexOf('\nUSAGE\n'))
      expect(stdout).not.toContain('DESCRIPTION')
    }
  })

  it('every command with a description: it comes before USAGE', async () => {
    // The built commands, as gw runs them: under vitest (NODE_ENV=test) oclif would look for their TypeScript and warn it found none.
    // oclif's settings are global, and the files after this one in the worker share them: put back after the loads.
    const transpiled = settings.enableAutoTranspile
    settings.enableAutoTranspile = false
    let config: Config
    let Help: Awaited<ReturnType<typeof loadHelpClass>>
    try {
      config = await Config.load(ROOT)
      Help = await loadHelpClass(config)
    } finally {
      settings.enableAutoTranspile = transpiled
    }
    // GwHelp, as --help loads it: oclif's Help, whose (protected) formatCommand gives one command's help, as scripts/reference.js reads it.
    const help = new Help(config, {stripAnsi: true, maxWidth: 100}) as unknown as {formatCommand(command: Command.Loadable): string}
    const described = config.commands.filter((command) => !command.hidden && command.description)
    expect(described.length).toBeGreaterThan(60)
    for (const command of described) {
      const text = help.formatCommand(command)
      const opening = command.description!.trim().split(/\s+/)[0]!
      expect(text.indexOf(opening), command.id).toBeGreaterThanOrEqual(0)
      expect(text.indexOf(opening), command.id).toBeLessThan(text.indexOf('USAGE'))
      expect(text, command.id).not.toContain('DESCRIPTION')
    }
  })
})

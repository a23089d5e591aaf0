import {Config} from '@oclif/core'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {completionTree, type CompletionTree} from '../../../../src/cli/help/completion.js'
import {HELP_TOPIC_NAMES} from '../../../../src/cli/help/topics.js'
import {powershellScript} from '../../../../src/cli/help/powershell-completion.js'

// gw completion powershell: pwsh is not in Debian, so the script is read here as
// PowerShell would read it: its strings and blocks whole, and the tree the other shells complete in it.

/** The script with its single-quoted strings and its comments taken out ('' is a quote inside a string); throws on a string left open. */
function outsideStrings(script: string): string {
  let outside = ''
  for (let at = 0; at < script.length; at++) {
    if (script[at] === '#') {
      at = script.indexOf('\n', at)
      outside += '\n'
      continue
    }
    if (script[at] !== "'") {
      outside += script[at]
      continue
    }
    for (at++; ; at++) {
      if (at >= script.length) throw new Error('a string is left open')
      if (script[at] === "'" && script[at + 1] === "'") at++
      else if (script[at] === "'") break
    }
    outside += "''"
  }
  return outside
}

/** The entries of `$name = @{ ... }`: each key's strings, as PowerShell reads them. */
function table(script: string, name: string): Map<string, string[]> {
  const block = new RegExp(`^  \\$${name} = @\\{\\n([\\s\\S]*?)\\n  \\}$`, 'm').exec(script)![1]!
  const strings = (text: string) => [...text.matchAll(/'((?:[^']|'')*)'/g)].map((match) => match[1]!.replaceAll("''", "'"))
  return new Map(block.split('\n').map((line) => {
    const [key, ...values] = strings(line)
    return [key!, values]
  }))
}

let tree: CompletionTree
let script: string
beforeAll(async () => {
  const config = await Config.load({root: join(import.meta.dirname, '..', '..', '..', '..')})
  tree = completionTree(config, HELP_TOPIC_NAMES)
  script = powershellScript(tree)
})

describe('the PowerShell completer', () => {
  it('is one native completer for gw, its strings closed and its blocks and brackets balanced', () => {
    expect(script.split('\n').filter((line) => line.startsWith('Register-ArgumentCompleter'))).toEqual(["Register-ArgumentCompleter -Native -CommandName 'gw' -ScriptBlock {"])
    const code = outsideStrings(script)
    for (const [open, close] of [['{', '}'], ['(', ')'], ['[', ']']]) {
      let depth = 0
      for (const char of code) {
        if (char === open) depth++
        if (char === close) depth--
        expect(depth, `${open}${close}`).toBeGreaterThanOrEqual(0)
      }
      expect(depth, `${open}${close}`).toBe(0)
    }
  })

  it('holds every topic and command with its summary, a quote in one doubled', () => {
    const children = table(script, 'children')
    for (const [path, names] of tree.children) expect(children.get(path), path).toEqual([...names].map(([name, summary]) => `${name}\t${summary}`))
    expect(children.get('')!.map((entry) => entry.split('\t')[0])).toEqual(expect.arrayContaining(['purchase', 'refund', 'sandbox', 'completion']))
    expect(children.get('customer')!.find((entry) => entry.startsWith('update\t'))).toMatch(/^update\tChange a customer's /)
    expect(script).toContain("'update\tChange a customer''s ")
  })

  it("holds each command's flags with their summaries, and the fixed values of a flag by command and flag, -f apart from -F", () => {
    const flags = table(script, 'flags')
    for (const [path, specs] of tree.flags) expect(flags.get(path), path).toEqual(specs.flatMap((spec) => spec.names.map((name) => `${name}\t${spec.summary}`)))
    expect(flags.get('api')!.filter((entry) => /^-[fF]\t/.test(entry))).toHaveLength(2)
    expect(script).toContain("  $values = [System.Collections.Generic.Dictionary[string, object]]::new([System.StringComparer]::Ordinal)\n")
    expect(script).toContain("  $values['subscription create|--frequency'] = @('Daily', 'Weekly', 'Fortnightly', 'Monthly', 'Quarterly', 'Bi-Annually', 'Annually')\n")
    expect(script).toContain("  $values['purchase create|--profile'] = @('@profiles')\n")
  })

  it("holds the fixed values of a command's argument: event names, the help topics, the shells", () => {
    const args = table(script, 'argValues')
    expect(args.get('sandbox trigger')).toEqual(expect.arrayContaining(['charge:successful', 'card:expiring']))
    expect(args.get('help')).toEqual(expect.arrayContaining(['exit-codes', 'environment', 'purchase']))
    expect(args.get('completion')).toEqual(['bash', 'zsh', 'fish', 'powershell'])
  })
})

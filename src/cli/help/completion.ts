import type {Interfaces} from '@oclif/core'
import {choices} from '../flags.js'

export type Shell = 'bash' | 'zsh' | 'fish' | 'powershell'

interface FlagSpec {
  names: string[]
  summary: string
  takesValue: boolean
  values?: readonly string[]
}

/** What a completion script knows, as space-separated command paths: `purchase create`. */
export interface CompletionTree {
  bin: string
  /** Every path that has children (topics and commands under them), with the children's names and summaries. */
  children: Map<string, Map<string, string>>
  flags: Map<string, FlagSpec[]>
  /** Fixed values of a command's first argument (`gw sandbox trigger EVENT`). */
  argValues: Map<string, readonly string[]>
}

/** The marker a script replaces with the profile names it reads from `gw profile list` when asked. */
export const PROFILES = '@profiles'

export function completionTree(config: Pick<Interfaces.Config, 'bin' | 'commands' | 'topics'>, extraHelpTopics: string[]): CompletionTree {
  const children = new Map<string, Map<string, string>>()
  const add = (path: string[], summary: string) => {
    const parent = path.slice(0, -1).join(' ')
    if (!children.has(parent)) children.set(parent, new Map())
    const siblings = children.get(parent)!
    if (!siblings.get(path.at(-1)!)) siblings.set(path.at(-1)!, summary)
  }
  const flags = new Map<string, FlagSpec[]>()
  const argValues = new Map<string, readonly string[]>()
  for (const command of config.commands) {
    if (command.hidden) continue
    const path = command.id.split(':')
    for (let i = 1; i < path.length; i++) add(path.slice(0, i), '')
    add(path, oneLine(command.summary ?? command.description ?? ''))
    flags.set(
      path.join(' '),
      Object.values(command.flags)
        .filter((flag) => !flag.hidden)
        .map((flag) => ({
          names: [`--${flag.name}`, ...(flag.char ? [`-${flag.char}`] : []), ...(flag.type === 'boolean' && flag.allowNo ? [`--no-${flag.name}`] : [])],
          summary: oneLine(flag.summary ?? flag.description ?? ''),
          takesValue: flag.type === 'option',
          values: flag.name === 'profile' ? [PROFILES] : flag.type === 'option' ? (flag.options ?? (Object.hasOwn(choices, flag.name) ? choices[flag.name] : undefined)) : undefined,
        })),
    )
    const firstArg = Object.values(command.args)[0]
    if (firstArg?.options) argValues.set(path.join(' '), firstArg.options)
  }
  for (const topic of config.topics) if (!topic.hidden) add(topic.name.split(':'), oneLine(topic.description ?? ''))
  argValues.set('help', [...(children.get('')?.keys() ?? []), ...extraHelpTopics])
  return {bin: config.bin, children, flags, argValues}
}

function oneLine(text: string): string {
  return text.split('\n')[0]!.replace(/\s+/g, ' ').trim()
}

export function completionScript(shell: Exclude<Shell, 'powershell'>, tree: CompletionTree): string {
  return shell === 'fish' ? fishScript(tree) : shell === 'zsh' ? zshScript(tree) : bashScript(tree)
}

/** Single-quoted for sh: nothing inside is expanded. */
const q = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

function caseArms(entries: Iterable<[string, string]>): string {
  return [...entries].map(([pattern, words]) => `    ${q(pattern)}) printf '%s\\n' ${words} ;;`).join('\n')
}

function shellFunctions(tree: CompletionTree): string {
  const fn = `_${tree.bin}`
  const valueFlags = new Set<string>()
  const valueArms: [string, string][] = []
  for (const [path, specs] of tree.flags) {
    for (const spec of specs) {
      if (!spec.takesValue) continue
      for (const name of spec.names) valueFlags.add(name)
      if (spec.values) for (const name of spec.names) valueArms.push([`${path}|${name}`, spec.values.map(q).join(' ')])
    }
  }
  return `${fn}_children() {
  case "$1" in
${caseArms([...tree.children].map(([path, names]) => [path, [...names.keys()].map(q).join(' ')]))}
  esac
}
${fn}_flags() {
  case "$1" in
${caseArms([...tree.flags].map(([path, specs]) => [path, specs.flatMap((spec) => spec.names).map(q).join(' ')]))}
  esac
}
${fn}_args() {
  case "$1" in
${caseArms([...tree.argValues].map(([path, values]) => [path, values.map(q).join(' ')]))}
  esac
}
${fn}_values() {
  case "$1" in
${caseArms(valueArms)}
    *'|--profile') printf '%s\\n' '${PROFILES}' ;;
  esac
}
${fn}_takes_value() {
  case "$1" in
    ${[...valueFlags].sort().map(q).join('|')}) return 0 ;;
  esac
  return 1
}
${fn}_profiles() {
  command ${tree.bin} profile list --json 2>/dev/null | sed -n 's/.*"name": *"\\([^"(][^"]*\\)".*/\\1/p'
}
# Candidates for the word being typed, one a line, from the words before it ($at, not $path: zsh ties path to PATH).
${fn}_candidates() {
  local cur="$1" at="" word value_of=""
  shift
  for word in "$@"; do
    if [ -n "$value_of" ]; then value_of=""; continue; fi
    case "$word" in
      --*=*) continue ;;
      -*) ${fn}_takes_value "$word" && value_of="$word"; continue ;;
    esac
    if ${fn}_children "$at" | grep -qxF -- "$word"; then at="\${at:+$at }$word"; fi
  done
  if [ -n "$value_of" ]; then
    local values
    values=$(${fn}_values "$at|$value_of")
    if [ "$values" = '${PROFILES}' ]; then ${fn}_profiles; else printf '%s\\n' "$values"; fi
    return
  fi
  case "$cur" in
    -*) ${fn}_flags "$at" ;;
    *) ${fn}_children "$at"; ${fn}_args "$at" ;;
  esac
}`
}

function bashScript(tree: CompletionTree): string {
  const fn = `_${tree.bin}`
  return `# ${tree.bin} completion for bash. Load it in this shell:  source <(${tree.bin} completion bash)
# or for every shell:  ${tree.bin} completion bash > ~/.local/share/bash-completion/completions/${tree.bin}
${shellFunctions(tree)}
${fn}_complete() {
  # Words as typed up to the cursor, split on spaces only: event names hold a colon.
  local line="\${COMP_LINE:0:COMP_POINT}" cur="" words
  read -ra words <<< "$line"
  if [[ "$line" != *" " ]]; then cur="\${words[\${#words[@]}-1]}"; unset 'words[\${#words[@]}-1]'; fi
  local IFS=$'\\n'
  COMPREPLY=($(compgen -W "$(${fn}_candidates "$cur" "\${words[@]:1}")" -- "$cur"))
  # Bash replaces only what follows the last colon of the word (COMP_WORDBREAKS).
  if [[ "$cur" == *:* && "$COMP_WORDBREAKS" == *:* ]]; then
    local colon_prefix="\${cur%"\${cur##*:}"}"
    COMPREPLY=("\${COMPREPLY[@]#"$colon_prefix"}")
  fi
}
complete -o default -F ${fn}_complete ${tree.bin}
`
}

function zshScript(tree: CompletionTree): string {
  return `#compdef ${tree.bin}
# ${tree.bin} completion for zsh. Load it in this shell:  source <(${tree.bin} completion zsh)
# or for every shell, in a directory on $fpath:  ${tree.bin} completion zsh > "\${fpath[1]}/_${tree.bin}"
${shellFunctions(tree)}
_${tree.bin}_zsh() {
  local -a candidates
  candidates=("\${(@f)$(_${tree.bin}_candidates "\${words[CURRENT]}" "\${(@)words[2,CURRENT-1]}")}")
  compadd -- "\${(@)candidates:#}"
}
# Autoloaded from $fpath this file is the function _${tree.bin}: complete now; sourced, register.
if [ "\${funcstack[1]}" = _${tree.bin} ]; then _${tree.bin}_zsh "$@"; else compdef _${tree.bin}_zsh ${tree.bin}; fi
`
}

function fishScript(tree: CompletionTree): string {
  const fn = `__${tree.bin}`
  // A tab between a candidate and its description is how fish shows both.
  const described = (name: string, summary: string) => q(summary ? `${name}\t${summary}` : name)
  const valueFlags = [...new Set([...tree.flags.values()].flat().filter((spec) => spec.takesValue).flatMap((spec) => spec.names))].sort()
  const valueArms = [...tree.flags].flatMap(([path, specs]) =>
    specs
      .filter((spec) => spec.values)
      .flatMap((spec) =>
        spec.names.map((name) => {
          const print = spec.values![0] === PROFILES ? `${fn}_profiles` : `printf '%s\\n' ${spec.values!.map(q).join(' ')}`
          return `            case ${q(`${path}|${name}`)}\n                ${print}`
        }),
      ),
  )
  const flagArms = [...tree.flags].map(([path, specs]) => `            case ${q(path)}\n                printf '%s\\n' ${specs.flatMap((spec) => spec.names.map((name) => described(name, spec.summary))).join(' ')}`)
  const argArms = [...tree.argValues].map(([path, values]) => `        case ${q(path)}\n            printf '%s\\n' ${values.map(q).join(' ')}`)
  const childArms = [...tree.children].map(([path, names]) => `        case ${q(path)}\n            printf '%s\\n' ${[...names].map(([name, summary]) => described(name, summary)).join(' ')}`)
  return `# ${tree.bin} completion for fish. Load it in this shell:  ${tree.bin} completion fish | source
# or for every shell:  ${tree.bin} completion fish > ~/.config/fish/completions/${tree.bin}.fish
function ${fn}_children
    switch "$argv[1]"
${childArms.join('\n')}
    end
end
function ${fn}_profiles
    command ${tree.bin} profile list --json 2>/dev/null | string replace -rf '.*"name": *"([^"(][^"]*)".*' '$1'
end
function ${fn}_candidates
    set -l words (commandline -opc)[2..-1]
    set -l cur (commandline -ct)
    set -l path ''
    set -l value_of ''
    for word in $words
        if test -n "$value_of"
            set value_of ''
            continue
        end
        switch $word
            case '--*=*'
                continue
            case ${valueFlags.map(q).join(' ')}
                set value_of $word
                continue
            case '-*'
                continue
        end
        if contains -- $word (${fn}_children "$path" | string replace -r '\\t.*' '')
            set path (string trim -- "$path $word")
        end
    end
    if test -n "$value_of"
        switch "$path|$value_of"
${valueArms.join('\n')}
            case '*|--profile'
                ${fn}_profiles
        end
        return
    end
    if string match -q -- '-*' "$cur"
        switch "$path"
${flagArms.join('\n')}
        end
        return
    end
    ${fn}_children "$path"
    switch "$path"
${argArms.join('\n')}
    end
end
complete -c ${tree.bin} -f -a '(${fn}_candidates)'
`
}

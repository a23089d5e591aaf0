import {type CompletionTree, PROFILES} from './completion.js'

// `gw completion powershell`: a native argument completer (Register-ArgumentCompleter -Native), as
// gh's is, with the same tree the bash, zsh and fish scripts carry, and the same walk over the
// words typed: topics and commands, flags with their summaries, fixed values, profile names.

/** Single-quoted for PowerShell: nothing inside is expanded, a quote is doubled. */
const q = (text: string) => `'${text.replaceAll("'", "''")}'`

const list = (values: readonly string[]) => `@(${values.map(q).join(', ')})`

/**
 * Names with their summaries, each `NAME<tab>SUMMARY` in one string: PowerShell's hashtables fold
 * case (gw api has -f and -F), and an array of one array would be flattened into its strings.
 */
const described = (entries: Iterable<[string, string]>) => list([...entries].map(([name, summary]) => `${name}\t${summary}`))

export function powershellScript(tree: CompletionTree): string {
  const {bin} = tree
  const children = [...tree.children].map(([path, names]) => `    ${q(path)} = ${described(names)}`)
  const flags = [...tree.flags].map(([path, specs]) => `    ${q(path)} = ${described(specs.flatMap((spec) => spec.names.map((name): [string, string] => [name, spec.summary])))}`)
  const valueFlags = [...new Set([...tree.flags.values()].flat().filter((spec) => spec.takesValue).flatMap((spec) => spec.names))].sort()
  const values = [...tree.flags].flatMap(([path, specs]) => specs.filter((spec) => spec.values).flatMap((spec) => spec.names.map((name) => `  $values[${q(`${path}|${name}`)}] = ${list(spec.values!)}`)))
  const args = [...tree.argValues].map(([path, names]) => `    ${q(path)} = ${list(names)}`)
  return `# ${bin} completion for PowerShell. Load it in this session:  ${bin} completion powershell | Out-String | Invoke-Expression
# or in every session, from your profile:  Add-Content $PROFILE '${bin} completion powershell | Out-String | Invoke-Expression'
Register-ArgumentCompleter -Native -CommandName ${q(bin)} -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $children = @{
${children.join('\n')}
  }
  $flags = @{
${flags.join('\n')}
  }
  $valueFlags = ${list(valueFlags)}
  # Keyed by flag too: one that folds case would take gw api's -f for its -F.
  $values = [System.Collections.Generic.Dictionary[string, object]]::new([System.StringComparer]::Ordinal)
${values.join('\n')}
  $argValues = @{
${args.join('\n')}
  }
  # The words before the one being typed, gw itself left out: the command path is read from them ($at).
  $words = @($commandAst.CommandElements | Where-Object { $_.Extent.EndOffset -le $cursorPosition } | ForEach-Object { $_.Extent.Text })
  if ($wordToComplete -ne '' -and $words.Count -gt 0) { $words = @($words | Select-Object -SkipLast 1) }
  $named = { param($entries) @($entries | ForEach-Object { ($_ -split "\t", 2)[0] }) }
  $at = ''
  $valueOf = $null
  foreach ($word in @($words | Select-Object -Skip 1)) {
    if ($valueOf) { $valueOf = $null; continue }
    if ($word.StartsWith('--') -and $word.Contains('=')) { continue }
    if ($word.StartsWith('-')) { if ($valueFlags -ccontains $word) { $valueOf = $word }; continue }
    if ((& $named $children[$at]) -ccontains $word) { $at = "$at $word".Trim() }
  }
  $candidates = @()
  if ($valueOf) {
    $fixed = @()
    if ($values.ContainsKey("$at|$valueOf")) { $fixed = @($values["$at|$valueOf"]) }
    if ($valueOf -ceq '--profile' -or $fixed -ccontains ${q(PROFILES)}) {
      $candidates = @(& ${q(bin)} profile list --json 2>$null | ForEach-Object { try { ($_ | ConvertFrom-Json).name } catch {} } | Where-Object { $_ -and -not $_.StartsWith('(') })
    } else {
      $candidates = $fixed
    }
  } elseif ($wordToComplete.StartsWith('-')) {
    $candidates = @($flags[$at])
  } else {
    $candidates = @($children[$at]) + @($argValues[$at])
  }
  foreach ($candidate in $candidates) {
    if (-not $candidate) { continue }
    $name, $summary = $candidate -split "\t", 2
    if ($name.StartsWith($wordToComplete, [System.StringComparison]::OrdinalIgnoreCase)) {
      [System.Management.Automation.CompletionResult]::new($name, $name, 'ParameterValue', $(if ($summary) { $summary } else { $name }))
    }
  }
}
`
}

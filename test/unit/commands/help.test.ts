import Completion from '../../../src/commands/completion.js'
import Help from '../../../src/commands/help.js'
import Version from '../../../src/commands/version.js'
import {parsesAs} from './parse-table.js'

parsesAs('help', Help, [
  {argv: [], input: []},
  {argv: ['purchase', 'create'], input: ['purchase', 'create']},
  {argv: ['exit-codes'], input: ['exit-codes']},
])

parsesAs('completion', Completion, [
  {argv: ['bash'], input: 'bash'},
  {argv: ['fish'], input: 'fish'},
  {argv: ['powershell'], input: 'powershell'},
  {argv: ['cmd'], usage: 'Expected cmd to be one of: bash, zsh, fish, powershell'},
  {argv: [], usage: 'Missing 1 required arg:\nshell  (bash|zsh|fish|powershell) the shell to complete in'},
])

parsesAs('version', Version, [
  {argv: [], input: undefined},
  {argv: ['--fields', 'version'], usage: '--json FIELDS and --fields pick the fields of records, and gw version prints none'},
])

import Login from '../../../src/commands/login.js'
import Logout from '../../../src/commands/logout.js'
import ProfileList from '../../../src/commands/profile/list.js'
import ProfileRemove from '../../../src/commands/profile/remove.js'
import ProfileShow from '../../../src/commands/profile/show.js'
import ProfileUse from '../../../src/commands/profile/use.js'
import Status from '../../../src/commands/status.js'
import {parsesAs} from './parse-table.js'

const login = {profile: undefined, environment: undefined, baseUrl: undefined, username: undefined, tokenStdin: undefined, readOnly: undefined, insecureStorage: undefined, activate: undefined}

parsesAs('login', Login, [
  {argv: [], input: login},
  {
    argv: ['--profile', 'ci', '--base-url', 'https://sandbox.gateway.example.com', '--username', 'SHOP', '--token-stdin', '--environment', 'sandbox'],
    input: {...login, profile: 'ci', baseUrl: 'https://sandbox.gateway.example.com', username: 'SHOP', tokenStdin: true, environment: 'sandbox'},
  },
  {argv: ['--profile', 'support', '--read-only', '--insecure-storage', '--no-activate'], input: {...login, profile: 'support', readOnly: true, insecureStorage: true, activate: false}},
  {argv: ['--profile', 'shop-live', '--activate'], input: {...login, profile: 'shop-live', activate: true}},
  {argv: ['--environment', 'production'], usage: 'Expected --environment=production to be one of: sandbox, live'},
  {argv: ['--token', 's3cret'], usage: 'unknown flag: --token'},
])

parsesAs('logout', Logout, [
  {argv: [], input: {all: undefined}},
  {argv: ['--all'], input: {all: true}},
  {argv: ['--profile', 'shop-live'], input: {all: undefined}},
  {argv: ['--all', '--profile', 'shop-live'], usage: '--profile cannot also be provided when using --all'},
])

parsesAs('status', Status, [
  // Not on a terminal: the gateway is tried only when asked.
  {argv: [], input: {check: false}},
  {argv: ['--check'], input: {check: true}},
  {argv: ['--no-check'], input: {check: false}},
  {argv: ['--fields', 'profile,environment'], input: {check: false}},
  {argv: ['--fields', 'token'], usage: '--json FIELDS or --fields: no such field token'},
])

parsesAs('profile list', ProfileList, [
  {argv: [], input: undefined},
  {argv: ['shop'], usage: 'gw profile list takes no argument "shop"'},
])

parsesAs('profile show', ProfileShow, [
  {argv: [], input: undefined},
  {argv: ['local'], input: 'local'},
])

parsesAs('profile use', ProfileUse, [
  {argv: ['local'], input: 'local'},
  {argv: [], usage: 'Missing 1 required arg:\nname  profile name'},
])

parsesAs('profile remove', ProfileRemove, [
  {argv: ['old-shop'], input: 'old-shop'},
  {argv: [], usage: 'Missing 1 required arg:\nname  profile name'},
])

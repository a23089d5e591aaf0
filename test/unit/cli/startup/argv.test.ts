import {describe, expect, it} from 'vitest'
import {globalFlags} from '../../../../src/cli/global-flags.js'
import {type CommandTable, flagsGiven, GLOBAL_GRAMMAR, grammarOf, readCommandLine, tokens} from '../../../../src/cli/startup/argv.js'
import PurchaseCreate from '../../../../src/commands/purchase/create.js'
import PurchaseGet from '../../../../src/commands/purchase/get.js'
import PurchaseList from '../../../../src/commands/purchase/list.js'
import Api from '../../../../src/commands/api.js'
import Status from '../../../../src/commands/status.js'

// The real command classes, as the bundle's COMMANDS gives them, and a topic with a command under a topic.
const commands: CommandTable = {
  'purchase:get': PurchaseGet,
  'purchase:list': PurchaseList,
  'purchase:create': PurchaseCreate,
  api: Api,
  status: Status,
  'plan:list': PurchaseList,
  'sandbox:clock:advance': Status,
}

const placed = async (argv: string[]) => (await readCommandLine(argv, commands)).argv

describe('readCommandLine: global flags before or between the command words move after them', () => {
  it.each([
    [['--json', 'purchase', 'get', 'ID'], ['purchase', 'get', 'ID', '--json']],
    [['--profile', 'live', 'status'], ['status', '--profile', 'live']],
    [['--profile=live', '--verbose', 'status'], ['status', '--profile=live', '--verbose']],
    [['purchase', '--yes', 'create', '--amount', '1000'], ['purchase', 'create', '--yes', '--amount', '1000']],
    [['--no-input', 'purchase', 'create', '--', '--json'], ['purchase', 'create', '--no-input', '--', '--json']],
    [['--fields', 'id,amount', 'purchase', 'get', 'ID'], ['purchase', 'get', 'ID', '--fields', 'id,amount']],
    [['--fields=id', 'plan', 'list'], ['plan', 'list', '--fields=id']],
    [['-q', '.id', 'purchase', 'get', 'ID'], ['purchase', 'get', 'ID', '-q', '.id']],
    [['sandbox', '--verbose', 'clock', 'advance'], ['sandbox', 'clock', 'advance', '--verbose']],
    // No such command: the words as typed first, for oclif's not-found hook.
    [['--json', 'purchse', 'get', 'X'], ['purchse', 'get', 'X', '--json']],
  ])('%j → %j', async (argv, expected) => {
    expect(await placed(argv)).toEqual(expected)
  })

  it.each([
    [['purchase', 'get', 'ID', '--json']],
    [['--version']],
    [['--help', '--json']],
    [['api', 'POST', '/v1.0/purchases', '--data', '--json']],
    [['--profile']],
    // No such command: left for oclif's not-found hook, as typed.
    [['purchse', 'get', 'ID', '--json', 'id,amount']],
  ])('leaves %j as it is', async (argv) => {
    expect(await placed(argv)).toEqual(argv)
  })

  it('names the command the words give, its arguments left after it', async () => {
    expect(await readCommandLine(['purchase', 'get', 'A', 'B'], commands)).toEqual({id: 'purchase:get', argv: ['purchase', 'get', 'A', 'B']})
    expect((await readCommandLine(['purchase'], commands)).id).toBeUndefined()
  })
})

describe("readCommandLine: --json FIELDS picks fields, as gh's does; --json alone keeps its meaning", () => {
  it.each([
    // After the ids, and before them: never a second id.
    [['purchase', 'get', 'ID', '--json', 'id,amount'], ['purchase', 'get', 'ID', '--json', '--fields', 'id,amount']],
    [['purchase', 'get', '--json', 'id,amount', 'ID'], ['purchase', 'get', 'ID', '--json', '--fields', 'id,amount']],
    [['purchase', 'get', 'ID', '--verbose', '--json', 'id,amount', 'ID2'], ['purchase', 'get', 'ID', 'ID2', '--verbose', '--json', '--fields', 'id,amount']],
    [['--json', 'id,amount', 'purchase', 'get', 'ID'], ['purchase', 'get', 'ID', '--json', '--fields', 'id,amount']],
    [['purchase', 'get', 'ID', '--json=id,amount'], ['purchase', 'get', 'ID', '--json', '--fields', 'id,amount']],
    // One field of the command's records, its schema's or the live gateway's.
    [['purchase', 'get', 'ID', '--json', 'amount'], ['purchase', 'get', 'ID', '--json', '--fields', 'amount']],
    [['purchase', 'get', 'ID', '--json', 'settlement_date'], ['purchase', 'get', 'ID', '--json', '--fields', 'settlement_date']],
    [['purchase', 'get', 'ID', '--json', 'card-number'], ['purchase', 'get', 'ID', '--json', '--fields', 'card-number']],
    // A command that takes no argument: whatever follows is its fields, and --fields judges the names.
    [['purchase', 'list', '--json', 'id,reference'], ['purchase', 'list', '--json', '--fields', 'id,reference']],
    [['purchase', 'list', '--status', 'approved', '--json', 'nosuchfield'], ['purchase', 'list', '--status', 'approved', '--json', '--fields', 'nosuchfield']],
    // A flag's value is not --json's: --reference takes the word after it.
    [['purchase', 'create', '--json', 'id', '--reference', 'order-1'], ['purchase', 'create', '--json', '--fields', 'id', '--reference', 'order-1']],
  ])('%j → %j', async (argv, expected) => {
    expect(await placed(argv)).toEqual(expected)
  })

  it.each([
    // An id or a reference after --json stays one.
    [['purchase', 'get', '--json', 'ship-7001']],
    [['purchase', 'get', '--json', '071-P-5W3JX8B2']],
    [['purchase', 'get', 'A', '--json', 'ordinary']],
    [['purchase', 'get', 'A', '--json', '--verbose']],
    [['purchase', 'get', 'A', '--', '--json', 'id']],
    [['api', '/v1.0/purchases', '--json', '/v1.0/refunds']],
  ])('leaves %j as it is', async (argv) => {
    expect(await placed(argv)).toEqual(argv)
  })
})

describe('tokens: argv read with a command’s flags, as oclif reads it', () => {
  const flags = grammarOf(Api)
  it('takes a value after a flag that takes one, and every word after a repeatable one', () => {
    const greedy = grammarOf({flags: {...Api.flags, 'raw-field': {...Api.flags['raw-field'], multipleNonGreedy: false}}})
    expect(tokens(['-X', 'POST', '/p', '-f', 'a=1', 'b=2', '--paginate', 'c'], greedy)).toEqual([
      {kind: 'flag', name: 'method', value: 'POST', raw: ['-X', 'POST']},
      {kind: 'word', text: '/p', afterDashes: false},
      {kind: 'flag', name: 'raw-field', value: 'a=1', raw: ['-f', 'a=1']},
      {kind: 'flag', name: 'raw-field', value: 'b=2', raw: ['b=2']},
      {kind: 'flag', name: 'paginate', raw: ['--paginate']},
      // oclif's greedy `multiple`: a boolean between leaves -f taking words.
      {kind: 'flag', name: 'raw-field', value: 'c', raw: ['c']},
    ])
  })

  it("takes one value after a repeatable flag that is not greedy (gw api's -f, -F and --query, as gh api's)", () => {
    expect(tokens(['-f', 'a=1', '/p', '-F', 'n=2', 'POST'], flags)).toEqual([
      {kind: 'flag', name: 'raw-field', value: 'a=1', raw: ['-f', 'a=1']},
      {kind: 'word', text: '/p', afterDashes: false},
      {kind: 'flag', name: 'field', value: 'n=2', raw: ['-F', 'n=2']},
      {kind: 'word', text: 'POST', afterDashes: false},
    ])
  })

  it("takes a value whose second letter is a flag's letter as the value (a reference aqua-7, a token Xq...), as oclif does", () => {
    expect(tokens(['--data', 'aqua-7', 'sq', '--method', 'Xf'], flags)).toEqual([
      {kind: 'flag', name: 'data', value: 'aqua-7', raw: ['--data', 'aqua-7']},
      {kind: 'word', text: 'sq', afterDashes: false},
      {kind: 'flag', name: 'method', value: 'Xf', raw: ['--method', 'Xf']},
    ])
    expect([...flagsGiven(['--profile', 'equinox', '--json'])]).toEqual(['profile', 'json'])
  })

  it('says which flags were given, a value glued or taken not among them', () => {
    expect([...flagsGiven(['--data', '--no-input', '-q.id', '--query=--yes'], flags)]).toEqual(['data', 'no-input', 'jq', 'query'])
    expect([...flagsGiven(['--data', '-', '--json'], flags)]).toEqual(['data', 'json'])
    expect([...flagsGiven(['--no-input', 'x', '--json'])]).toEqual(['no-input', 'json'])
    expect([...flagsGiven(['--no-check'], grammarOf(Status))]).toEqual(['check'])
  })
})

describe("the pre-parser's grammar of the global flags is GwCommand's", () => {
  it('has each global flag, with its kind and letter', () => {
    const declared = Object.fromEntries(Object.entries(globalFlags).map(([name, flag]) => [name, {type: flag.type, ...(flag.char ? {char: flag.char} : {})}]))
    expect(GLOBAL_GRAMMAR).toEqual(declared)
  })
})

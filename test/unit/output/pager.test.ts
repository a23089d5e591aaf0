import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {testIo} from '../../test-io.js'
import {pagedIo, pagerCommand} from '../../../src/output/pager.js'

describe('pagerCommand', () => {
  it.each([
    [{}, {argv: ['less', '-FRX'], chosen: false}],
    [{PAGER: 'more'}, {argv: ['more'], chosen: true}],
    [{PAGER: 'more', GW_PAGER: "'/opt/my pager' -R"}, {argv: ['/opt/my pager', '-R'], chosen: true}],
    [{PAGER: 'cat'}, undefined],
    [{PAGER: ''}, undefined],
    [{PAGER: 'more', GW_PAGER: 'cat'}, undefined],
    [{PAGER: 'more', GW_PAGER: ' '}, undefined],
  ])('%j: %j', (env, expected) => {
    expect(pagerCommand(env)).toEqual(expected)
  })
})

describe('pagedIo', () => {
  /** A terminal of `rows` rows, as far as the pager's choice goes. */
  const terminal = (rows: number) => ({isTTY: true, rows}) as NodeJS.WriteStream

  it('prints what fits the screen itself; once it would not, the rest and stderr go to the pager, in order', async () => {
    const got = join(mkdtempSync(join(tmpdir(), 'gw-pager-unit-')), 'got')
    const io = testIo({tty: true})
    const paged = pagedIo(io, {GW_PAGER: `sh -c 'cat > ${got}'`}, terminal(5))
    await paged.page!(2)
    paged.out('one\ntwo\n')
    await paged.page!(3)
    paged.out('three\nfour\nfive\n')
    paged.err('note\n')
    expect(paged.canPrompt()).toBe(false)
    await paged.close!()
    expect(io.stdout()).toBe('one\ntwo\n')
    expect(io.stderr()).toBe('')
    expect(readFileSync(got, 'utf8')).toBe('three\nfour\nfive\nnote\n')
    // Once the reader has left, what is left to say goes to stderr itself; the output is over, not failed.
    paged.err('after\n')
    expect(io.stderr()).toBe('after\n')
    expect(paged.outFailure!()?.code).toBe('EPAGERQUIT')
  })

  it('never where stdout is not a terminal', async () => {
    const io = testIo({tty: true})
    const paged = pagedIo(io, {GW_PAGER: 'sh -c "exit 3"'}, {isTTY: false} as NodeJS.WriteStream)
    await paged.page!(1000)
    paged.out('all\n')
    await paged.close!()
    expect(io.stdout()).toBe('all\n')
    expect(paged.outFailure?.()).toBeUndefined()
  })
})

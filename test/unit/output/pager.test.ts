import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
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

describe("pagedIo's waits for its reader", () => {
  it('add no listener that stays: a long list, waiting page after page, leaves Node nothing to warn of', async () => {
    const warnings: Error[] = []
    const warned = (warning: Error) => warnings.push(warning)
    process.on('warning', warned)
    try {
      // A reader slower than gw: it pauses after each chunk it takes, as a person reads a screen.
      const folder = mkdtempSync(join(tmpdir(), 'gw-pager-unit-'))
      const reader = join(folder, 'reader.cjs')
      writeFileSync(reader, `let taken = 0
process.stdin.on('data', (chunk) => { taken += chunk.length; process.stdin.pause(); setTimeout(() => process.stdin.resume(), 5) })
process.stdin.on('end', () => require('node:fs').writeFileSync(${JSON.stringify(join(folder, 'taken'))}, String(taken)))
`)
      const paged = pagedIo(testIo({tty: true}), {GW_PAGER: `${process.execPath} ${reader}`}, {isTTY: true, rows: 5} as NodeJS.WriteStream)
      await paged.page!(100)
      // Each page more than the pipe takes at once: the list waits for the pager to take it before the next.
      const page = 'x'.repeat(99) + '\n'
      for (let pages = 0; pages < 20; pages++) {
        await paged.outReady()
        paged.out(page.repeat(1000))
      }
      await paged.flushOut!()
      await paged.close!()
      await new Promise((resolve) => setImmediate(resolve))
      expect(readFileSync(join(folder, 'taken'), 'utf8')).toBe(String(20 * 100_000))
      expect(warnings.map((warning) => warning.message)).toEqual([])
    } finally {
      process.off('warning', warned)
    }
  })
})

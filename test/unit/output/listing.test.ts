import {describe, expect, it} from 'vitest'
import {purchaseColumns} from '../../../src/output/columns.js'
import {testIo} from '../../test-io.js'
import {renderListing} from '../../../src/output/render.js'

const record = (n: number) => ({id: `071-P-${String(n).padStart(8, '0')}`, reference: `order-${n}`, amount: 1000, currency: 'AUD'})

describe('renderListing waits for its reader', () => {
  it('takes no page while stdout is behind: the next is asked for only once it has drained', async () => {
    let drain!: () => void
    let ready = Promise.resolve()
    const io = {...testIo(), outReady: () => ready}
    const pulled: number[] = []
    async function* pages() {
      for (let page = 1; page <= 3; page++) {
        pulled.push(page)
        if (page === 1) ready = new Promise<void>((resolve) => (drain = resolve))
        yield [record(page)]
      }
    }
    const done = renderListing(io, pages(), purchaseColumns, {json: false})
    // Page 1 written, and stdout behind: page 2 must wait.
    await new Promise((resolve) => setImmediate(resolve))
    expect(pulled).toEqual([1])
    expect(io.stdout().split('\n').filter(Boolean)).toHaveLength(1)
    ready = Promise.resolve()
    drain()
    await done
    expect(pulled).toEqual([1, 2, 3])
    expect(io.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line).reference)).toEqual(['order-1', 'order-2', 'order-3'])
  })

  it('tells `paged` once the pages are in, before the last table prints', async () => {
    const io = testIo({tty: true})
    const told: string[] = []
    async function* pages() {
      yield [record(1), record(2)]
    }
    await renderListing(io, pages(), purchaseColumns, {json: false}, {paged: () => told.push(`paged with ${io.stdout().length} characters out`)})
    expect(told).toEqual(['paged with 0 characters out'])
    expect(io.stdout()).toContain('order-2')
  })
})

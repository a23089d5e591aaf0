import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {GatewayClient} from '../../../src/api/client.js'
import {RefundBook} from '../../../src/lists/refund-book.js'
import {afterThisTest} from '../../after-each-test.js'

/** A command's book of refunds over an index of its own, in a data folder of the test's, closed when the test ends; `warned` holds what it said. */
export function testBook(client: GatewayClient, dataDir = mkdtempSync(join(tmpdir(), 'gw-book-'))): RefundBook & {warned: string[]; dataDir: string} {
  const warned: string[] = []
  const book = new RefundBook({dataDir, target: async () => ({baseUrl: 'https://gateway.example', username: 'merchant'}), warn: (text) => warned.push(text)}, {client})
  afterThisTest(() => book.close())
  return Object.assign(book, {warned, dataDir})
}

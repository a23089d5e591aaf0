import {formatMoney} from './money.js'
import type {SettlementSums} from '../operations/settlement.js'

const purchases = (count: number) => `${count} purchase${count === 1 ? '' : 's'}`

/**
 * The line under gw purchase settlement's list at a terminal: what settles in each currency, never
 * added across currencies, and how many purchases listed settle nothing.
 */
export function settlementTotalLine({currencies, voided, declined}: SettlementSums): string {
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  const settling = [...currencies.entries()].sort(([a], [b]) => order(a, b)).map(([currency, {settling, amount}]) => `${formatMoney(amount, currency)} (${purchases(settling)})`)
  const none = [voided > 0 ? `${voided} voided` : '', declined > 0 ? `${declined} declined` : ''].filter(Boolean)
  const nothing = none.length === 0 ? '' : `; ${none.join(' and ')} ${voided + declined === 1 ? 'settles' : 'settle'} nothing`
  return `Total settling: ${settling.length > 0 ? settling.join(', ') : 'nothing'}${nothing}.\n`
}

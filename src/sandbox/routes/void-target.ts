import {badRequest} from '../domain/errors.js'
import {blankMessage, isBlank, readFields} from '../domain/input.js'
import type {RouteRequest} from './route.js'

/**
 * The id a void names: in the JSON body, as the vendor's Ruby library sends it, or in the query
 * string with an empty body, as ActiveMerchant and the PHP library do (gateway-beyond.md §5, §6).
 */
export function voidTarget({input, query}: RouteRequest): string {
  const {id} = readFields(input, {id: 'string'})
  const target = isBlank(id) ? query.id : id
  if (isBlank(target)) throw badRequest([blankMessage('id')])
  return target
}

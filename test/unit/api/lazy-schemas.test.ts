import * as z from 'zod'
import {describe, expect, it} from 'vitest'
import {lazily} from '../../../src/api/schemas/lazy.js'

describe('lazily: a schema built when first used', () => {
  it('is not built at import, and is built once, on the first use', () => {
    let builds = 0
    const Record = lazily(() => (builds++, z.looseObject({id: z.string().nullish()})))
    const List = z.array(Record).nullish()
    const Holder = z.looseObject({record: Record})
    expect(builds).toBe(0)
    expect(List.parse([{id: 'a', extra: 1}])).toEqual([{id: 'a', extra: 1}])
    expect(Holder.safeParse({record: {id: 1}}).success).toBe(false)
    expect(Record.parse({id: 'b'})).toEqual({id: 'b'})
    expect(builds).toBe(1)
  })

  it('is the schema wherever zod or gw looks at it: its class, its shape, its methods', () => {
    const Record = lazily(() => z.looseObject({id: z.string(), amount: z.number().nullish()}))
    expect(Record).toBeInstanceOf(z.ZodObject)
    expect(Object.keys(Record.shape)).toEqual(['id', 'amount'])
    expect(z.strictObject({...Record.shape}).safeParse({id: 'x', other: 1}).success).toBe(false)
    const issue = Record.safeParse({amount: 'ten'}).error?.issues.map(({path}) => path.join('.'))
    expect(issue).toEqual(['id', 'amount'])
  })
})

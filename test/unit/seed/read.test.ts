import {describe, expect, it} from 'vitest'
import {expectThrow} from '../../expect-error.js'
import {UsageError} from '../../../src/errors.js'
import {checkSeedFile} from '../../../src/seed/file.js'
import {keptText, LONGEST_KEPT, NotUtf8Error, oversizedLength} from '../../../src/seed/read.js'

/** The text cut into chunks of `size` bytes, as a stream delivers it: a character or an escape may be split. */
async function* chunks(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8')
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

// A fixtures file's 100 MB description is refused by the length rule, naming the step
// and field, and never held whole: a string too long for any field is counted, not kept.
describe('a fixtures file as it streams in', () => {
  const file = JSON.stringify({steps: [{name: 'gold', create: 'plan', fields: {name: 'Göld \u2603 "q" \\ \n', amount: 2500, reference: 'gold', description: 'a\u00e9\ud83d\ude00'}}]}, null, 2)

  it.each([1, 2, 3, 7, 4096])('refuses bytes that are not UTF-8, naming their line, in chunks of %i bytes', async (size) => {
    async function* bad(): AsyncGenerator<Buffer> {
      const bytes = Buffer.concat([Buffer.from('{"steps": [\n{"name": "g'), Buffer.from([0xff]), Buffer.from('"}\n]}')])
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
    }
    const refused = await keptText(bad()).then(() => undefined, (err: unknown) => err)
    expect(refused).toBeInstanceOf(NotUtf8Error)
    expect((refused as NotUtf8Error).line).toBe(2)
  })

  it.each([1, 2, 3, 7, 4096])('is kept as it came when no string is too long, in chunks of %i bytes', async (size) => {
    expect(await keptText(chunks(file, size))).toBe(file)
  })

  it('keeps an escaped or a multi-byte string up to the limit, and counts one past it by characters, escapes as one', async () => {
    const atLimit = 'é'.repeat(LONGEST_KEPT)
    expect(JSON.parse(await keptText(chunks(JSON.stringify({d: atLimit}), 5)))).toEqual({d: atLimit})
    // \u0041 is 6 bytes in the file and 1 character in the string: counted as the string has it.
    const escaped = `{"d": "${'\\u0041'.repeat(LONGEST_KEPT + 1)}"}`
    const kept = JSON.parse(await keptText(chunks(escaped, 7))) as {d: string}
    expect(oversizedLength(kept.d)).toBe(LONGEST_KEPT + 1)
    expect(oversizedLength('a plain string')).toBeUndefined()
  })

  it('keeps a few bytes of a 20 MB string, and its length', async () => {
    const description = 'x'.repeat(20 * 1024 * 1024)
    const text = await keptText(chunks(JSON.stringify({steps: [{name: 'gold', create: 'plan', fields: {description, name: 'Gold'}}]}), 64 * 1024))
    expect(text.length).toBeLessThan(200)
    const parsed = JSON.parse(text) as {steps: [{fields: {description: string; name: string}}]}
    expect(oversizedLength(parsed.steps[0].fields.description)).toBe(20 * 1024 * 1024)
    expect(parsed.steps[0].fields.name).toBe('Gold')
  })

  it('a string too long is refused by the length rule, naming the step and field, with the others', async () => {
    const description = 'x'.repeat(100_000)
    const steps = [
      {name: 'gold', create: 'plan', fields: {name: 'Gold', amount: 2500, reference: 'gold', description: 'Gold plan'}},
      {name: 'silver', create: 'plan', fields: {name: 'S'.repeat(300), amount: 0, reference: 'silver', description}},
    ]
    const text = await keptText(chunks(JSON.stringify({steps}), 1000))
    const refused = (() => {
      try {
        checkSeedFile(text, 'fixtures.json')
      } catch (err) {
        return err
      }
    })()
    expect(refused).toBeInstanceOf(UsageError)
    expect((refused as UsageError).message).toBe(
      'fixtures.json has 3 problems; nothing was sent:\n' +
        '  step 2 "silver" (plan): fields.description is 100000 characters long; the gateway takes at most 255\n' +
        '  step 2 "silver" (plan): fields.name is 300 characters long; the gateway takes at most 255\n' +
        '  step 2 "silver" (plan): fields.amount must be greater than 0, got 0',
    )
  })

  it('an unclosed string is left for JSON.parse to place', async () => {
    expectThrow(() => checkSeedFile('{"steps": [{"name": "gold', 'fixtures.json'), UsageError, /fixtures\.json is not JSON/)
    const kept = await keptText(chunks('{"steps": [{"name": "gold', 3))
    expect(kept).toBe('{"steps": [{"name": "gold')
  })
})

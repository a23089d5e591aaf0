import {describe, expect, it} from 'vitest'
import {refuseAnotherInstance} from '../../../src/batch/instance.js'
import type {Result} from '../../../src/batch/journal.js'
import {AuthError, NotFoundError, UnreachableError, UsageError} from '../../../src/errors.js'
import type {Deps} from '../../../src/operations/deps.js'

const target = {base_url: 'http://localhost:4010', username: 'TEST'}
const results = (...instances: (string | undefined)[]) =>
  new Map<string, Result>(instances.map((instance, i) => [`r-${i}`, {result: `r-${i}`, status: 'approved', exit_code: 0, ...(instance === undefined ? {} : {gateway_instance: instance})}]))
const journal = (...instances: (string | undefined)[]) => ({path: '/data/j.ndjson', results: results(...instances)})

/** A client whose one read is answered by the gateway run `now` (none: a gateway that names none), or fails with `error`. */
function client(now: string | undefined, error?: Error) {
  const asked: unknown[] = []
  const fake = {
    gatewayInstance: undefined as string | undefined,
    purchases: {
      list: async (query: unknown) => {
        asked.push(query)
        fake.gatewayInstance = now
        if (error) throw error
        return {records: [], paging: {}}
      },
    },
  }
  return {deps: {client: fake as unknown as Deps['client']}, asked}
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('was not refused')
    },
    (err: unknown) => err,
  )

describe('refuseAnotherInstance: a journal never reports rows from another run of the gateway', () => {
  it('asks nothing when no row of the journal was answered by a gateway that names its run', async () => {
    const {deps, asked} = client('run-2')
    await refuseAnotherInstance(journal(), target, deps)
    await refuseAnotherInstance(journal(undefined, undefined), target, deps)
    expect(asked).toEqual([])
  })

  it('asks with one read of one record, and lets the batch go on when the same run answers', async () => {
    const {deps, asked} = client('run-1')
    await refuseAnotherInstance(journal('run-1', 'run-1', undefined), target, deps)
    expect(asked).toEqual([{offset: 0, limit: 1}])
  })

  it('refuses another run (exit 2), counting the rows, saying why and what to do', async () => {
    const {deps} = client('run-2')
    const error = await refusal(refuseAnotherInstance(journal('run-1', 'run-1', 'run-2'), target, deps))
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({
      exitCode: 2,
      message:
        '2 rows of journal /data/j.ndjson were answered by another run of the local gateway at http://localhost:4010 (instance run-1), and the gateway there now is instance run-2: its data does not hold the rows the journal says were done, so none is reported as done, and nothing was sent',
      hint: 'The gateway was restarted without its --state file, or reset. Start it again on the --state file it had, then run this again to finish the batch; or, to send every row to this gateway afresh, give the batch a journal of its own (--journal FILE).',
    })
  })

  it('refuses a gateway that names no run at all, one row said in the singular, every other run named', async () => {
    const {deps} = client(undefined)
    expect(await refusal(refuseAnotherInstance(journal('run-1'), target, deps))).toMatchObject({
      message:
        '1 row of journal /data/j.ndjson was answered by another run of the local gateway at http://localhost:4010 (instance run-1), and the gateway there now is one that names no run of its data: its data does not hold the rows the journal says were done, so none is reported as done, and nothing was sent',
    })
    expect(await refusal(refuseAnotherInstance(journal('run-1', 'run-3'), target, deps))).toMatchObject({message: expect.stringContaining('2 rows of journal /data/j.ndjson were answered by another run of the local gateway at http://localhost:4010 (instance run-1, run-3)')})
  })

  it('takes a refused read as an answer (its header names the run), and throws what is no answer, or refused credentials', async () => {
    await refuseAnotherInstance(journal('run-1'), target, client('run-1', new NotFoundError('Not found', {status: 404})).deps)
    expect(await refusal(refuseAnotherInstance(journal('run-1'), target, client('run-2', new NotFoundError('Not found', {status: 404})).deps))).toBeInstanceOf(UsageError)
    const unreachable = new UnreachableError('Could not reach the gateway at http://localhost:4010: ECONNREFUSED', {baseUrl: 'http://localhost:4010', certificate: false})
    expect(await refusal(refuseAnotherInstance(journal('run-1'), target, client('run-1', unreachable).deps))).toBe(unreachable)
    const refused = new AuthError('Incorrect Username or Token', {status: 401})
    expect(await refusal(refuseAnotherInstance(journal('run-1'), target, client('run-1', refused).deps))).toBe(refused)
    const bug = new TypeError('not a gw error')
    expect(await refusal(refuseAnotherInstance(journal('run-1'), target, client('run-1', bug).deps))).toBe(bug)
  })
})

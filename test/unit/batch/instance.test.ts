import {describe, expect, it} from 'vitest'
import {refuseAnotherInstance} from '../../../src/batch/instance.js'
import type {Result} from '../../../src/batch/journal-entries.js'
import {AuthError, NotFoundError, UnreachableError, UsageError} from '../../../src/errors.js'
import type {Deps} from '../../../src/operations/deps.js'

const target = {base_url: 'http://localhost:4010', username: 'TEST'}
const results = (...instances: (string | undefined)[]) =>
  new Map<string, Result>(instances.map((instance, i) => [`r-${i}`, {result: `r-${i}`, status: 'approved', exit_code: 0, ...(instance === undefined ? {} : {gateway_instance: instance})}]))
const journal = (...instances: (string | undefined)[]) => ({path: '/data/j.ndjson', results: results(...instances)})

/**
 * A client whose one read (GET /_sandbox/instance) is answered by a gateway whose data is `now`
 * and holds `runs` (each up to a count of changes); or fails with `error`, its header naming `now`.
 */
function client(now: string | undefined, runs: Record<string, number> = {}, error?: Error) {
  let asked = 0
  const fake = {
    gatewayInstance: undefined as string | undefined,
    sandbox: {
      instance: async () => {
        asked++
        fake.gatewayInstance = now
        if (error) throw error
        return {instance: now ?? null, runs: Object.entries(runs).map(([id, until]) => ({id, until}))}
      },
    },
  }
  return {deps: {client: fake as unknown as Deps['client']}, asked: () => asked}
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('was not refused')
    },
    (err: unknown) => err,
  )

describe('refuseAnotherInstance: a journal never reports rows from data the gateway no longer holds', () => {
  it('asks nothing when no row of the journal was answered by a gateway that names its data', async () => {
    const {deps, asked} = client('run-2.1', {'run-2': 1})
    await refuseAnotherInstance(journal(), target, deps)
    await refuseAnotherInstance(journal(undefined, undefined), target, deps)
    expect(asked()).toBe(0)
  })

  it('asks once, and lets the batch go on while the gateway holds each run up to the count each row was answered at', async () => {
    const {deps, asked} = client('run-2.9', {'run-1': 5, 'run-2': 9})
    await refuseAnotherInstance(journal('run-1.4', 'run-1.5', 'run-2.9', undefined), target, deps)
    expect(asked()).toBe(1)
  })

  it('refuses rows answered past where the gateway holds their run (a copy of its state file from before them, started again): exit 2, counting them, saying why and what to do', async () => {
    const {deps} = client('run-2.3', {'run-1': 3, 'run-2': 3})
    const error = await refusal(refuseAnotherInstance(journal('run-1.3', 'run-1.4', 'run-1.6'), target, deps))
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({
      exitCode: 2,
      message:
        "2 rows of journal /data/j.ndjson were answered by a run of the local gateway's data at http://localhost:4010 (instance run-1) that the gateway there now does not hold (instance run-2.3): its data does not hold the rows the journal says were done, so none is reported as done, and nothing was sent",
      hint: 'The gateway was restarted without its --state file, reset, or restarted on a copy of the file from before these rows. Start it again on the --state file it had, then run this again to finish the batch; or, to send every row to this gateway afresh, give the batch a journal of its own (--journal FILE).',
    })
  })

  it('refuses a run the gateway does not hold at all, one row said in the singular, every such run named once', async () => {
    const {deps} = client('run-9.0', {'run-9': 0})
    expect(await refusal(refuseAnotherInstance(journal('run-1.1'), target, deps))).toMatchObject({message: expect.stringContaining('1 row of journal /data/j.ndjson was answered by a run of the local gateway\'s data at http://localhost:4010 (instance run-1) that the gateway there now does not hold (instance run-9.0)')})
    expect(await refusal(refuseAnotherInstance(journal('run-1.1', 'run-1.2', 'run-3.1', 'bad.x'), target, deps))).toMatchObject({message: expect.stringContaining('4 rows of journal /data/j.ndjson were answered by a run of the local gateway\'s data at http://localhost:4010 (instance run-1, run-3, bad)')})
    const none = client(undefined)
    expect(await refusal(refuseAnotherInstance(journal('run-1.1'), target, none.deps))).toMatchObject({message: expect.stringContaining('that the gateway there now does not hold (it names no run of its data)')})
  })

  it('holds a name from a gw before counts (the run alone) while the gateway holds its run', async () => {
    await refuseAnotherInstance(journal('run-1'), target, client('run-1.0', {'run-1': 0}).deps)
    expect(await refusal(refuseAnotherInstance(journal('run-1'), target, client('run-2.0', {'run-2': 0}).deps))).toBeInstanceOf(UsageError)
  })

  it('a gateway without the read (a gw before it): its answer names its run, and only that name is held; no answer, refused credentials and what is no gw error are thrown', async () => {
    const missing = () => new NotFoundError('No route matches GET /_sandbox/instance', {status: 404})
    await refuseAnotherInstance(journal('run-1'), target, client('run-1', {}, missing()).deps)
    expect(await refusal(refuseAnotherInstance(journal('run-1'), target, client('run-2', {}, missing()).deps))).toMatchObject({message: expect.stringContaining('(instance run-1) that the gateway there now does not hold (instance run-2)')})
    const unreachable = new UnreachableError('Could not reach the gateway at http://localhost:4010: ECONNREFUSED', {baseUrl: 'http://localhost:4010', certificate: false})
    expect(await refusal(refuseAnotherInstance(journal('run-1'), target, client('run-1', {}, unreachable).deps))).toBe(unreachable)
    const refused = new AuthError('Incorrect Username or Token', {status: 401})
    expect(await refusal(refuseAnotherInstance(journal('run-1'), target, client('run-1', {}, refused).deps))).toBe(refused)
    const bug = new TypeError('not a gw error')
    expect(await refusal(refuseAnotherInstance(journal('run-1'), target, client('run-1', {}, bug).deps))).toBe(bug)
  })
})

import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ref, type Sandbox, sharedSandbox} from './helpers.js'

// gh api's habits in gw api: -X/--method, -f string fields, -F typed fields.
let sandbox: Sandbox
sharedSandbox((started) => void (sandbox = started))

const answerOf = (stdout: string) => (JSON.parse(stdout) as {response: Record<string, unknown>}).response

describe('gw api -X, -f and -F, as gh api has them', () => {
  it('fields without a METHOD make a POST: -f a string, -F a whole number as a number', async () => {
    const reference = ref('plan')
    const made = await sandbox.gw(['api', '/v1.0/plans', '-f', 'name=Silver', '-F', 'amount=1500', '-f', `reference=${reference}`, '-f', 'description=Silver tier'])
    expect(made.code, made.stderr).toBe(0)
    expect(answerOf(made.stdout)).toMatchObject({name: 'Silver', amount: 1500, reference, description: 'Silver tier'})
    // -f keeps digits a string: the gateway is sent "1500", and its answer says what it made of it.
    const logged = await sandbox.gw(['sandbox', 'logs', '--path', '/v1.0/plans', '--limit', '1'])
    expect(logged.records).toMatchObject([{method: 'POST', reference}])
  })

  it('-X PUT (and --method, any case) names the METHOD, PATH the one word left; -F @FILE reads a file', async () => {
    const reference = ref('plan')
    await sandbox.gw(['api', 'POST', '/v1.0/plans', '-f', 'name=Gold', '-F', 'amount=2500', '-f', `reference=${reference}`, '-f', 'description=Gold'])
    const file = join(sandbox.home.HOME!, 'description.txt')
    writeFileSync(file, 'Gold, from a file\n')
    const updated = await sandbox.gw(['api', '-X', 'PUT', `/v1.0/plans/${reference}.json`, '-F', `description=@${file}`])
    expect(updated.code, updated.stderr).toBe(0)
    expect(answerOf(updated.stdout)).toMatchObject({reference, description: 'Gold, from a file'})
    const got = await sandbox.gw(['api', '--method', 'get', `/v1.0/plans/${reference}.json`])
    expect(answerOf(got.stdout)).toMatchObject({reference, description: 'Gold, from a file'})
  })

  it('-F reads true, false and null as JSON; with GET the fields are the query string', async () => {
    const reference = ref('cust')
    const made = await sandbox.gw(['api', '-X', 'POST', '/v1.0/plans', '-f', 'name=Typed', '-F', 'amount=100', '-f', `reference=${reference}`, '-f', 'description=x', '-F', 'ignored=true'])
    expect(made.code, made.stderr).toBe(0)
    const listed = await sandbox.gw(['api', '-X', 'GET', '/v1.0/plans.json', '-F', 'limit=1'])
    expect((JSON.parse(listed.stdout) as {response: unknown[]}).response).toHaveLength(1)
  })

  it('refuses -X beside a METHOD word, a field that is not KEY=VALUE, and fields beside --data (exit 2, nothing sent)', async () => {
    const both = await sandbox.gw(['api', 'GET', '/v1.0/plans.json', '-X', 'PUT'])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('Error: -X PUT gives the METHOD, so GET /v1.0/plans.json is one word too many')
    const bad = await sandbox.gw(['api', '/v1.0/plans', '-f', 'name'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('Error: -f must be KEY=VALUE, got "name"')
    const data = await sandbox.gw(['api', 'POST', '/v1.0/plans', '-f', 'name=x', '--data', '{}'])
    expect(data.code).toBe(2)
  })
})

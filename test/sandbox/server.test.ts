import {existsSync, mkdtempSync, statSync} from 'node:fs'
import {Agent, createServer, request, type Server} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {AddressInfo} from 'node:net'
import {afterEach, describe, expect, it} from 'vitest'
import {readRuntimeFile} from '../../src/sandbox/server/runtime-file.js'
import {FaultList} from '../../src/sandbox/server/faults.js'
import {createRequestListener} from '../../src/sandbox/server/http.js'
import type {Route} from '../../src/sandbox/routes/route.js'
import {sandbox} from './helpers.js'

describe('the HTTP edge', () => {
  let server: Server | undefined
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve))
  })

  it('answers a handler that throws with a 500 envelope, logs it, persists, and keeps serving', async () => {
    const lines: string[] = []
    let afterHandleCalls = 0
    const routes: Route<undefined>[] = [
      {
        method: 'GET',
        path: '/boom',
        auth: 'none',
        handle: () => {
          throw new Error('kaput')
        },
      },
      {method: 'GET', path: '/fine', auth: 'none', handle: () => ({status: 200, response: {ok: true}})},
    ]
    server = createServer(
      createRequestListener({
        routes,
        ctx: undefined,
        mode: 'sandbox',
        dialect: 'contract',
        authenticate: () => false,
        faults: new FaultList(),
        afterHandle: async () => {
          afterHandleCalls++
        },
        signal: new AbortController().signal,
        log: (line) => lines.push(line),
      }),
    )
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    const boom = await fetch(`${base}/boom`)
    expect(boom.status).toBe(500)
    expect(await boom.json()).toStrictEqual({successful: false, response: null, errors: ['Internal sandbox error'], test: true})
    expect(lines.some((line) => line.includes('internal error on GET /boom') && line.includes('kaput'))).toBe(true)
    expect(afterHandleCalls).toBe(1)

    const fine = await fetch(`${base}/fine`)
    expect(fine.status).toBe(200)
    expect(await fine.json()).toStrictEqual({successful: true, response: {ok: true}, errors: [], test: true})
  })
})

describe('startSandbox', () => {
  it('picks a free port for port 0 and reports its URL', async () => {
    const gateway = await sandbox()
    expect(gateway.port).toBeGreaterThan(0)
    expect(gateway.url).toBe(`http://127.0.0.1:${gateway.port}`)
  })

  it('rejects when the port is taken', async () => {
    const gateway = await sandbox()
    await expect(sandbox({port: gateway.port})).rejects.toMatchObject({code: 'EADDRINUSE'})
  })

  it('closes at once with an idle keep-alive connection open, and stops accepting', async () => {
    const gateway = await sandbox()
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${gateway.url}/_sandbox/info`, {agent: new Agent({keepAlive: true})}, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode))
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(200)

    const started = Date.now()
    await gateway.close()
    expect(Date.now() - started).toBeLessThan(500)
    await expect(fetch(`${gateway.url}/_sandbox/info`)).rejects.toThrow(TypeError)
    await gateway.close()
  })

  it('announces itself in the runtime file once listening, and removes it on close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-sandbox-'))
    const runtimeFile = join(dir, 'data', 'sandbox.json')
    const stateFile = join(dir, 'state.json')
    const gateway = await sandbox({runtimeFile, stateFile, mode: 'live'})
    expect(readRuntimeFile(runtimeFile)).toStrictEqual({
      pid: process.pid,
      url: gateway.url,
      host: '127.0.0.1',
      port: gateway.port,
      mode: 'live',
      dialect: 'contract',
      processingWindowMs: 2000,
      rateLimit: null,
      latencyMs: 0,
      webHookOrder: 'oldest',
      stateFile,
      startedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      webhooks: [],
      merchants: ['ACME'],
      // Given no file, the log is kept in memory.
      requestLog: null,
      controlToken: gateway.controlToken,
      // This process as Linux tells it: its boot and start, and its command line.
      process: {started: expect.stringMatching(/^[\w-]+\/\d+$/), command: expect.stringContaining('node')},
    })
    expect(gateway.controlToken).toMatch(/^[\w-]{43}$/)
    // Its user's alone: it holds the control token, which also proves the gateway gw's own (api/local-gateway.ts).
    expect(statSync(runtimeFile).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700)
    await gateway.close()
    expect(existsSync(runtimeFile)).toBe(false)
  })
})

import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {changeConfig, configFile, loadConfig} from '../../../src/auth/config.js'
import {saveLocalProfile} from '../../../src/auth/local-profile.js'
import {fileTokenStore} from '../../../src/auth/token-store.js'
import {WriteError} from '../../../src/errors.js'
import {expectReject} from '../../expect-error.js'

const dirs: string[] = []
const configDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-config-lock-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

describe('config.json changed by two gw at once', () => {
  it('keeps every change when twelve local gateways register at once', async () => {
    const dir = configDir()
    const names = Array.from({length: 12}, (_, i) => `shop-${i}`)
    await Promise.all(names.map((name, i) => saveLocalProfile(dir, `http://127.0.0.1:${4200 + i}`, 'sandbox', name)))
    const config = await loadConfig(dir)
    expect(Object.keys(config.profiles).sort()).toEqual([...names].sort())
    expect(config.profiles['shop-7']!.baseUrl).toBe('http://127.0.0.1:4207')
    expect(names).toContain(config.activeProfile)
    expect(existsSync(`${configFile(dir)}.lock`)).toBe(false)
  })

  it('keeps every token when twelve logins with --insecure-storage write the token file at once', async () => {
    const store = fileTokenStore(join(configDir(), 'credentials.json'))
    await Promise.all(Array.from({length: 12}, (_, i) => store.set(`p${i}`, `token-${i}`)))
    expect(Object.keys(await store.all())).toHaveLength(12)
    await Promise.all(Array.from({length: 6}, (_, i) => store.delete(`p${i}`)))
    expect(Object.keys(await store.all()).sort()).toEqual(['p10', 'p11', 'p6', 'p7', 'p8', 'p9'])
  })

  it('waits while another live gw holds the lock, and changes the file once it is let go', async () => {
    const dir = configDir()
    const holder = spawn('sleep', ['60'], {stdio: 'ignore'})
    try {
      const lock = `${configFile(dir)}.lock`
      writeFileSync(lock, String(holder.pid))
      let done = false
      const change = changeConfig(dir, (config) => {
        config.activeProfile = 'after'
      }).then(() => (done = true))
      // The change cannot go ahead while the lock is held: it is still waiting after the holder's file is read many times over.
      for (let polls = 0; polls < 5; polls++) await new Promise((resolve) => setTimeout(resolve, 25))
      expect(done).toBe(false)
      expect(existsSync(configFile(dir))).toBe(false)
      rmSync(lock)
      await change
      expect(JSON.parse(readFileSync(configFile(dir), 'utf8')).activeProfile).toBe('after')
    } finally {
      holder.kill()
    }
  })

  it("takes over the lock of a gw that died mid-change", async () => {
    const dir = configDir()
    const dead = spawn('true')
    await new Promise((resolve) => dead.on('exit', resolve))
    writeFileSync(`${configFile(dir)}.lock`, String(dead.pid))
    await changeConfig(dir, (config) => {
      config.activeProfile = 'recovered'
    })
    expect((await loadConfig(dir)).activeProfile).toBe('recovered')
  })

  it('refuses a config.json with two names (hard links), naming the fix, and changes nothing', async () => {
    const dir = configDir()
    writeFileSync(configFile(dir), '{"profiles":{}}\n')
    const {linkSync} = await import('node:fs')
    linkSync(configFile(dir), join(dir, 'other-name.json'))
    await expectReject(
      changeConfig(dir, (config) => {
        config.activeProfile = 'x'
      }),
      WriteError,
      `${configFile(dir)} has 2 names (hard links): gw changes its settings only in a file of its own`,
    )
    expect(readFileSync(configFile(dir), 'utf8')).toBe('{"profiles":{}}\n')
  })
})

import {spawnSync} from 'node:child_process'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

// scripts/clone-install.js, the clone's own install step (package.json's postprepare): npm runs it
// once the dependencies are in place, so it can say whether keytar (optional, the OS keychain) is
// there. Run here on a Node at or above gw's floor, it fetches no Node (test/e2e/node-floor.test.ts
// runs it below).
const root = join(import.meta.dirname, '..', '..')
const script = join(root, 'scripts', 'clone-install.js')
const NOTE = /^gw: no OS keychain: keytar (could not be built|does not load \(.+\))( \(on Linux it needs libsecret-1-dev, then npm ci again\))?\. gw works without it: gw login then needs --insecure-storage \(the token in a file only you can read\), or give GW_TOKEN in the environment \(docs\/install\.md\)\.\n$/

function keytarLoads(): boolean {
  try {
    createRequire(join(root, 'package.json'))('keytar')
    return true
  } catch {
    return false
  }
}

const installStep = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, [script], {cwd: root, env: {PATH: process.env.PATH, ...env}, encoding: 'utf8'})

describe("a clone's install step", () => {
  it('says in one line that the keychain is out where keytar does not load, and nothing where it does', () => {
    const ran = installStep({})
    expect(ran.status).toBe(0)
    expect(ran.stdout).toBe('')
    if (keytarLoads()) expect(ran.stderr).toBe('')
    else expect(ran.stderr).toMatch(NOTE)
  })

  it('says nothing where keytar was left out on purpose (--omit=optional, which npm passes as npm_config_omit)', () => {
    expect(installStep({npm_config_omit: 'optional'})).toMatchObject({status: 0, stdout: '', stderr: ''})
    expect(installStep({npm_config_omit: 'dev\noptional'})).toMatchObject({status: 0, stdout: '', stderr: ''})
  })
})

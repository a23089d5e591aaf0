import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {it} from 'vitest'
import {folder} from './identity-helpers.js'
import {cardArgs, ref, type Sandbox, sandboxForFile} from './helpers.js'
let sandbox: Sandbox
sandboxForFile((s) => void (sandbox = s))
it('shows', async () => {
  const ids: string[] = []
  for (let i = 0; i < 2; i++) ids.push(((await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref('x'), ...cardArgs(), '--no-capture', '--json'])).json as {id: string}).id)
  const file = join(folder(), 'c.csv')
  writeFileSync(file, 'id,amount\n' + ids.map((id) => `${id},500`).join('\n') + '\n')
  await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: `/v1.0/purchases/${ids[0]}/capture`, action: 'drop-before'})
  const r = await sandbox.gw(['purchase', 'capture', '--input', file], {env: {GW_TEST_WINDOW_MS: '1500'}})
  console.log('CODE', r.code, '\nSTDOUT<<' + r.stdout + '>>\nSTDERR<<' + r.stderr + '>>')
  const t = await sandbox.gw(['purchase', 'capture', '--input', file], {env: {GW_TEST_WINDOW_MS: '1500', GW_FORCE_TTY: '150'}})
  console.log('CODE', t.code, '\nSTDOUT<<' + t.stdout + '>>\nSTDERR<<' + t.stderr + '>>')
  const one = ((await sandbox.gw(['purchase', 'create', '--amount', '1000', '--reference', ref('x'), ...cardArgs(), '--no-capture', '--json'])).json as {id: string}).id
  await sandbox.control('POST', '/_sandbox/faults', {method: 'POST', path: `/v1.0/purchases/${one}/capture`, action: 'drop-before'})
  const s = await sandbox.gw(['purchase', 'capture', one], {env: {GW_TEST_WINDOW_MS: '1500'}})
  console.log('CODE', s.code, '\nSTDERR<<' + s.stderr + '>>')
})

// The last step of `npm run build`: writes what gw's first run would otherwise write beside the
// bundle, so that an install nobody can write to (sudo npm i -g, a distro package, a container)
// starts as fast as one its user owns, and the single executable embeds the same cache:
// - dist/gw.cjs.<node>-<arch>.cache, V8's code cache for the bundle, trained by one
//   `gw purchase get ID --json` against a local gateway (a cache holds what its run compiled);
// - dist/root-help-node<version>-80.txt, the root help as oclif renders it 80 columns wide.
// Both are for the Node running the build; another Node rejects them and writes its own.
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

const root = join(import.meta.dirname, '..')
const dist = join(root, 'dist')
const gw = join(root, 'bin', 'run.js')
const home = mkdtempSync(join(tmpdir(), 'gw-train-'))
// Nothing of this machine's gw settings, proxies or V8 flags (NODE_OPTIONS would change the cache's flag hash).
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_DATA_HOME: join(home, 'data'),
  XDG_CACHE_HOME: join(home, 'cache'),
  OCLIF_COLUMNS: '80',
}

for (const name of readdirSync(dist)) if (/^root-help-|\.cache$/.test(name)) rmSync(join(dist, name))

const sandbox = spawn(process.execPath, [gw, 'sandbox', 'start', '--port', '0'], {env, stdio: ['ignore', 'pipe', 'pipe']})
try {
  const url = await listening(sandbox)
  const auth = {authorization: `Basic ${Buffer.from('TEST:TEST').toString('base64')}`, 'content-type': 'application/json'}
  const body = JSON.stringify({amount: 1000, reference: 'train-start', card_holder: 'Train Start', card_number: '4242424242424242', card_expiry: '12/2030', cvv: '123'})
  const created = await fetch(`${url}/v1.0/purchases`, {method: 'POST', headers: auth, body}).then((response) => response.json())
  // The sandbox's own start wrote no cache (it writes at its exit, and not over this one).
  gwOnce(['purchase', 'get', created.response.id, '--json'], {GW_BASE_URL: url, GW_USERNAME: 'TEST', GW_TOKEN: 'TEST'})
  gwOnce(['--help'])
} finally {
  await new Promise((resolve) => (sandbox.exitCode === null ? (sandbox.once('exit', resolve), sandbox.kill('SIGTERM')) : resolve()))
}
rmSync(home, {recursive: true, force: true})

const made = readdirSync(dist).filter((name) => /^root-help-|\.cache$/.test(name))
if (made.length !== 2) throw new Error(`training gw's start made ${made.join(', ') || 'nothing'} in dist/, not a code cache and a root help`)

function gwOnce(args, extra = {}) {
  const result = spawnSync(process.execPath, [gw, ...args], {env: {...env, ...extra}, encoding: 'utf8'})
  if (result.status !== 0) throw new Error(`gw ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
}

function listening(child) {
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /https?:\/\/\S+/.exec(out)
      if (match) resolve(match[0])
    })
    child.stderr.on('data', (chunk) => (err += chunk))
    child.on('exit', (code) => reject(new Error(`the local gateway exited ${code} before it listened: ${err}`)))
  })
}

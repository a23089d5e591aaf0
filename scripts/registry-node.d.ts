/** scripts/registry-node.js: the npm registry's builds of Node, the ones gw pins, and fetching one. */
export interface NodeBuild {
  name: string
  version: string
  integrity?: string
}
export const TARGETS: string[]
export function hostTarget(platform?: string, arch?: string): string
export function platformOf(target: string): {platform: string; arch: string}
export function packageOf(target: string): string
export function lockedBuilds(): NodeBuild[]
export function pinFor(target: string): NodeBuild | undefined
export function cacheRoot(env?: NodeJS.ProcessEnv): string
export function fetchNode(build: NodeBuild, into?: string): string
export function npm(args: string[], cwd: string): string
export function npmCli(): string | undefined
export function run(file: string, args: string[], options?: import('node:child_process').SpawnSyncOptions): string
export function tar(): string

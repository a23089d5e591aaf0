import {execFileSync} from 'node:child_process'
import {existsSync, readdirSync, statSync} from 'node:fs'
import {join} from 'node:path'

/**
 * The end-to-end tests run the built gw (vitest.config.ts runs this before their projects alone):
 * rebuilt first when a source file is newer than the build.
 */
export default function setup(): void {
  const root = join(import.meta.dirname, '..')
  const manifest = join(root, 'oclif.manifest.json')
  if (!existsSync(manifest) || newestSource(join(root, 'src')) > statSync(manifest).mtimeMs) execFileSync('npm', ['run', 'build'], {cwd: root, stdio: 'inherit'})
}

function newestSource(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

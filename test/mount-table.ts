import {hostPlatform} from '../src/lib/platform.js'

/**
 * The mount points of this machine's mount table, innermost last (Linux's /proc/self/mountinfo,
 * read as gw reads it: none on another system). The kernel writes a space in a path as `\040`.
 */
export function mountPoints(): string[] {
  const table = hostPlatform().procFile('self/mountinfo') ?? ''
  return table
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ')[4]!.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))))
}

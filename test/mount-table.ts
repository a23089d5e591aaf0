import {readFileSync} from 'node:fs'

/**
 * The mount points of this machine's mount table, innermost last (Linux's /proc/self/mountinfo);
 * none on another system. The kernel writes a space in a path as `\040`.
 */
export function mountPoints(): string[] {
  if (process.platform !== 'linux') return []
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ')[4]!.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))))
}

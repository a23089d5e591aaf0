/**
 * A test only some systems can run (design §8: a platform check, never a blanket skip): whether
 * it is skipped on this one, and the words its name ends with there, saying why. `platform` is for
 * the helper's own test.
 */
export function onlyOn(platforms: readonly NodeJS.Platform[], why: string, platform: NodeJS.Platform = process.platform): {skip: boolean; note: string} {
  const names: Record<string, string> = {linux: 'Linux', darwin: 'macOS', win32: 'Windows'}
  const skip = !platforms.includes(platform)
  return {skip, note: skip ? ` (skipped on ${names[platform] ?? platform}: ${why})` : ''}
}

/** `> /dev/full`, a device every write to fails with ENOSPC: Linux's alone (macOS and Windows have none). */
export const DEV_FULL = onlyOn(['linux'], '/dev/full, which every write fails on, is Linux’s')

/** A reader that goes away under a POSIX shell: SIGPIPE, exit 141, bash's PIPESTATUS, head. Not Windows's. */
export const POSIX_PIPES = onlyOn(['linux', 'darwin'], 'a reader going away is SIGPIPE (exit 141) under bash, which Windows has neither of')

/** A program as a `#!/bin/sh` script on PATH: a POSIX system's, not Windows's, which runs no shebang. */
export const POSIX_SCRIPTS = onlyOn(['linux', 'darwin'], 'it puts gw on PATH as a #!/bin/sh script, which Windows does not run')

/** A file others may write (mode 0666): POSIX mode bits, which Windows does not keep (it tells no owners). */
export const POSIX_MODES = onlyOn(['linux', 'darwin'], 'it sets a file’s mode bits, which Windows does not keep')

/** A file gw holds open, removed under it: Windows refuses it (SQLite opens it sharing no delete access, journal-place.ts). */
export const REMOVABLE_WHILE_OPEN = onlyOn(['linux', 'darwin'], 'Windows refuses to remove a file gw holds open')

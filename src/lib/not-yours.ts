import {readFileSync, type Stats} from 'node:fs'

// The words of lib/own-file.ts's refusals: what is not the user's, and what to do about it.

export type NotYoursProblem = 'owner' | 'writable' | 'readable' | 'link' | 'special'

/** A file, folder or link on the way that is not the user's: what it is, what is wrong, and what to do. */
export class NotYoursError extends Error {
  override name = 'NotYoursError'

  constructor(
    readonly path: string,
    readonly problem: NotYoursProblem,
    message: string,
    readonly hint: string,
    /** Its permission bits, as its stat gave them. */
    readonly mode: number,
  ) {
    super(message)
  }
}

/** What a file that is not a regular one is, in a few words. */
function kindOf(stat: Stats): string {
  if (stat.isCharacterDevice()) return 'a character device'
  if (stat.isBlockDevice()) return 'a block device'
  if (stat.isFIFO()) return 'a named pipe (FIFO)'
  if (stat.isSocket()) return 'a socket'
  return 'a special file'
}

export function notYours(path: string, problem: NotYoursProblem, stat: Stats, uid: number, {given = false}: {given?: boolean} = {}): NotYoursError {
  const bits = stat.mode & 0o7777
  const mode = bits.toString(8).padStart(4, '0')
  const folder = stat.isDirectory()
  const owner = who(stat.uid)
  const you = who(uid)
  switch (problem) {
    case 'link':
      return new NotYoursError(path, problem, `${path} is a symbolic link made by ${owner}, not by you (${you}): gw does not follow another user's links`, `Give the path it should lead to yourself, or remove the link (rm ${path}) if you may.`, bits)
    case 'owner':
      return new NotYoursError(
        path,
        problem,
        `${path} belongs to ${owner}, not to you (${you}): gw uses only what is your own (or root's), as ssh does`,
        folder
          ? `Use a folder of your own; if it is yours, take it back (chown ${name(uid) ?? uid} ${path}) once you have checked what it holds.`
          : given
            ? `Another user may have written or read it: give a file of your own (made with umask 077), and check what this one holds before you trust it.`
            : `Another user may have written or read it: use another path, or remove it (rm ${path}) once you have checked what it holds; gw makes it afresh, private.`,
        bits,
      )
    case 'special':
      return new NotYoursError(
        path,
        problem,
        `${path} is ${kindOf(stat)}, not a regular file: gw ${given ? 'reads' : 'reads and writes'} only regular files here`,
        given ? 'Give the path of a regular file of your own.' : 'Give the path of a regular file of your own (gw makes it where there is none).',
        bits,
      )
    case 'writable':
      return new NotYoursError(
        path,
        problem,
        folder
          ? `${path} is a folder that others than you can write (mode ${mode}, not sticky as /tmp is): gw uses only what no one else can change, as ssh does`
          : `${path} can be written by others than you (mode ${mode}): gw uses only what no one else can change, as ssh does`,
        folder ? `Take the others' write permission away (chmod go-w ${path}), or use a folder of your own.` : `Check what it holds, then take the others' write permission away (chmod go-w ${path}).`,
        bits,
      )
    case 'readable':
      return new NotYoursError(path, problem, `${path} holds a secret that others than you can read (mode ${mode}): it may be known already`, `Make it yours alone (chmod 600 ${path}) and replace the secret it holds.`, bits)
  }
}

/**
 * An owner (a user's name, or `uid N`) as a message names one, always as a user: `the user nobody`,
 * `the user with uid 1001`. Bare, a user named nobody made "is nobody's" and "nobody can stop it".
 */
export const ownerWords = (owner: string) => (/^uid \d+$/.test(owner) ? `the user with ${owner}` : `the user ${owner}`)

/** A user as messages name one: `alice (uid 1000)`, or `uid 1000` where the name is not known. */
function who(uid: number): string {
  const known = name(uid)
  return known === undefined ? `uid ${uid}` : `${known} (uid ${uid})`
}

/** A user's name, as /etc/passwd has it; undefined where it has none (macOS keeps most users elsewhere). */
function name(uid: number): string | undefined {
  try {
    return readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((entry) => entry.split(':')[2] === String(uid))
      ?.split(':')[0]
  } catch {
    return undefined
  }
}


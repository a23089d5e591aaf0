/** Why a file could not be read, in words a person reads once (not ENOENT): said after "cannot be read:". */
export function whyUnreadable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'no such file'
  if (code === 'EISDIR') return 'it is a directory'
  if (code === 'EACCES') return 'permission denied'
  return (err as Error).message
}

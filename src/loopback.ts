/** This machine's own names: only a process here can reach an address among them. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1']

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host)
}

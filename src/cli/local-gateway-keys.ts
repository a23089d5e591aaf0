/**
 * The control tokens of the local gateways gw started, from their runtime files in gw's data folder:
 * a gateway that proves it holds one is gw's own (api/local-gateway.ts). A file left by a gateway
 * gone costs nothing: no process answers with its proof.
 */
export async function localGatewayKeys(dataDir: string): Promise<string[]> {
  const {readRuntimeFile, runtimeFilesIn} = await import('../sandbox/server/runtime-file.js')
  return runtimeFilesIn(dataDir).flatMap(({runtime}) => {
    const key = readRuntimeFile(runtime)?.controlToken
    return typeof key === 'string' ? [key] : []
  })
}

/**
 * The control token of the local gateway gw started that listens at `baseUrl`, an address of this
 * machine: its port is that of a runtime file in gw's data folder. Sent with every request there,
 * it lets the user's own profile in as merchant TEST where the gateway listens beyond loopback and
 * refuses TEST to everyone else. Undefined for any other address.
 */
export async function localGatewayToken(dataDir: string, baseUrl: string): Promise<string | undefined> {
  const {isLoopbackUrl, reachableUrl} = await import('../lib/loopback.js')
  if (!isLoopbackUrl(baseUrl)) return undefined
  const {readRuntimeFile, runtimeFilesIn} = await import('../sandbox/server/runtime-file.js')
  const {protocol, port} = new URL(baseUrl)
  for (const {runtime} of runtimeFilesIn(dataDir)) {
    const info = readRuntimeFile(runtime)
    if (typeof info?.controlToken !== 'string') continue
    const at = new URL(reachableUrl(info.url))
    if (at.protocol === protocol && at.port === port) return info.controlToken
  }
  return undefined
}

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

/**
 * The proof keys of the local gateways gw started that are running, from their runtime files in
 * gw's data folder: a gateway that proves it holds one is gw's own (api/local-gateway.ts).
 */
export async function localGatewayKeys(dataDir: string): Promise<string[]> {
  const {knownSandboxes} = await import('../sandbox/server/daemon.js')
  return knownSandboxes(dataDir).flatMap(({status}) => (status.state === 'running' && typeof status.info.proofKey === 'string' ? [status.info.proofKey] : []))
}

import type {ProxyRoute} from '../api/proxy.js'
import type {CredentialSource, Target} from './resolve.js'

const CHOSEN_BY: Record<CredentialSource, string> = {
  flag: '--profile',
  GW_PROFILE: 'GW_PROFILE',
  active: 'the active profile',
  environment: 'GW_USERNAME and GW_TOKEN',
}

/** gw status: who gw talks to and why, through which proxy, and where the token is kept; never the token. */
export function statusRecord(target: Target, route: ProxyRoute): Record<string, unknown> {
  return {
    profile: target.profileName ?? null,
    chosen_by: CHOSEN_BY[target.source],
    environment: target.environment,
    base_url: target.baseUrl,
    username: target.username,
    read_only: target.profile?.readOnly ?? false,
    secret: target.secretLocation,
    proxy: route.kind === 'proxy' ? `${route.proxy} (${route.variable})` : `none: ${route.reason}`,
  }
}

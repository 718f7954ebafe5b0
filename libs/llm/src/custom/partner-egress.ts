import { Agent } from 'undici';
import {
  CONNECT_FAILED_MESSAGE,
  connectionFailureMessage,
  isConnectFailure,
  PrivateNetworkGuard,
  privateNetworksAllowed,
} from '@vap/egress';
import { LlmError } from '../llm-error';

/** Longest wait for a connection to a partner's model server (the turn's silence deadline still applies). */
const CONNECT_TIMEOUT_MS = 5000;

const pools = new Map<boolean, { guard: PrivateNetworkGuard; agent: Agent }>();

/**
 * The connection pool and guard for requests to partners' model servers: every address a name resolves to is
 * checked at connect time, IP literals before the request, so a partner's URL never reaches the platform's own
 * network. One pool per setting for the process (connections are kept alive between a call's turns).
 * `allowPrivateNetworks` unset: WEBHOOK_ALLOW_PRIVATE_NETWORKS, the switch custom functions follow.
 */
export function partnerEgress(allowPrivateNetworks?: boolean): { guard: PrivateNetworkGuard; agent: Agent } {
  const allow = allowPrivateNetworks ?? privateNetworksAllowed();
  let pool = pools.get(allow);
  if (!pool) {
    const guard = new PrivateNetworkGuard({ allowPrivateNetworks: allow });
    pool = { guard, agent: new Agent({ connect: { lookup: guard.lookup, timeout: CONNECT_TIMEOUT_MS } }) };
    pools.set(allow, pool);
  }
  return pool;
}

/** Refuses a URL that is not http(s), carries credentials, or names an IP literal off the public internet. */
export function checkPartnerUrl(url: URL, guard: PrivateNetworkGuard): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new LlmError(`the model server URL must be https, got ${url.protocol}`, 'network');
  if (url.username || url.password)
    throw new LlmError('the model server URL must not carry credentials', 'network');
  guard.assertHostAllowed(url.hostname);
}

/**
 * What a partner reads of a failed connection: one text for every failure before a connection (a refused
 * address, a name that does not resolve), a code after; never what a name resolved to inside the platform.
 */
export function partnerNetworkFailure(err: unknown): string {
  return isConnectFailure(err) ? CONNECT_FAILED_MESSAGE : connectionFailureMessage(err);
}

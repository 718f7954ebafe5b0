/** What fan-out needs of an enabled endpoint. */
export interface FanOutEndpoint {
  id: string;
  agentId: string | null;
  events: string[];
}

/** Rule 2: an empty allowlist takes every type, including types added later. */
export function acceptsEvent(endpoint: FanOutEndpoint, eventType: string): boolean {
  return endpoint.events.length === 0 || endpoint.events.includes(eventType);
}

/**
 * The endpoints one event goes to, per the contract's delivery rules 2-6, given the partner's enabled
 * endpoints and, for an agent's event, the agent's webhooks_include_account_endpoints:
 * - an event with no agent goes to the account-wide endpoints whose allowlist takes it (rule 5);
 * - an agent's event goes to the agent's own endpoints that take it (rule 3), plus, while the flag is true,
 *   the account-wide ones that take it (rule 4, additive);
 * - with the flag false only the agent's own endpoints count: an event none of them takes is dropped, never
 *   passed on to account-wide endpoints (rule 6).
 */
export function selectEndpoints<E extends FanOutEndpoint>(
  endpoints: E[],
  eventType: string,
  agentId: string | null,
  includeAccountEndpoints: boolean,
): E[] {
  return endpoints.filter((e) => {
    if (!acceptsEvent(e, eventType)) return false;
    if (e.agentId === null) return agentId === null || includeAccountEndpoints;
    return e.agentId === agentId;
  });
}

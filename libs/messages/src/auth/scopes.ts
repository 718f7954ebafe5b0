/**
 * Permission scopes of API keys: the one catalogue the gateway enforces, the operator API and console
 * validate, and the docs list. A scope is `<resource>:<access>`; `read_only` stands for every `:read`, and
 * a `:write` scope includes the same resource's `:read`. A key without scopes has full access.
 */
export const SCOPE_RESOURCES = [
  'agents',
  'calls',
  'customers',
  'campaigns',
  'compliance',
  'webhooks',
  'knowledge',
  'telephony',
  'billing',
  'projects',
  'clients',
] as const;
export type ScopeResource = (typeof SCOPE_RESOURCES)[number];

export type ScopeAccess = 'read' | 'write';
export type ResourceScope = `${ScopeResource}:${ScopeAccess}`;

/** What each resource covers, for the docs and the OpenAPI description. */
export const SCOPE_RESOURCE_DESCRIPTIONS: Record<ScopeResource, string> = {
  agents:
    'Agents, their voices and catalogue, voice configurations, custom functions, lifecycle hooks, the extraction sets attached to an agent',
  calls:
    "Calls and browser (web) sessions with their transcripts, variables and extraction; SMS messages; integration logs (the calls' custom-function and hook requests and responses, with call variables)",
  customers: 'Customers',
  campaigns: 'Campaigns and their contacts',
  compliance: 'Do-not-call list and contact policy (settings and decisions)',
  webhooks:
    "Webhook endpoints (account and agent), the legacy webhook, webhook deliveries with their whole payloads (the events' call transcripts, variables and extraction included)",
  knowledge: 'Documents, agent knowledge, extraction-set definitions (attaching one to an agent: agents)',
  telephony: 'Phone numbers, telephony connections, inbound routing, reseller link, sandbox inbound calls',
  billing: 'Balance and billing records',
  projects: 'Projects',
  clients:
    "A reseller's client accounts (funding, suspension, rate cards, usage, audit); clients:write also lets the key act on behalf of a client (X-On-Behalf-Of)",
};

export const READ_ONLY_SCOPE = 'read_only';

export const RESOURCE_SCOPES: readonly ResourceScope[] = SCOPE_RESOURCES.flatMap((r) => [
  `${r}:read` as const,
  `${r}:write` as const,
]);

/** Every scope name a key may be given. */
export const API_KEY_SCOPES: readonly string[] = [...RESOURCE_SCOPES, READ_ONLY_SCOPE];

export function isApiKeyScope(name: string): boolean {
  return API_KEY_SCOPES.includes(name);
}

/** The resource scopes a list of granted scope names amounts to (`read_only` and `:write` expanded). */
export function expandScopes(granted: readonly string[]): Set<ResourceScope> {
  const out = new Set<ResourceScope>();
  for (const name of granted) {
    if (name === READ_ONLY_SCOPE) {
      for (const r of SCOPE_RESOURCES) out.add(`${r}:read`);
      continue;
    }
    const [resource, access] = name.split(':') as [ScopeResource, ScopeAccess];
    if (!SCOPE_RESOURCES.includes(resource) || (access !== 'read' && access !== 'write')) continue;
    out.add(`${resource}:${access}`);
    if (access === 'write') out.add(`${resource}:read`);
  }
  return out;
}

/**
 * Whether `granted` (null: full access) allows `required` (null: a route that needs full access, the
 * answer for anything the route table does not map).
 */
export function scopeAllows(
  granted: ReadonlySet<ResourceScope> | null,
  required: ResourceScope | null,
): boolean {
  if (granted === null) return true;
  return required !== null && granted.has(required);
}

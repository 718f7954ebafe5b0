import type { ResourceScope, ScopeResource } from '@vap/messages';

/**
 * Which resource each /api/v2 route belongs to, by path prefix (`*` matches any one segment; the first rule
 * that matches wins, so the more specific come first). GET and HEAD need `<resource>:read`, every other
 * method `<resource>:write`, unless READ_POSTS says the POST only reads. A route no rule matches needs a key
 * with full access: a new route is closed to scoped keys until it is added here (route-scopes.spec.ts walks
 * every route and fails on one that maps to nothing).
 */
const RESOURCE_RULES: ReadonlyArray<readonly [string, ScopeResource]> = [
  ['agent/*/documents', 'knowledge'],
  ['agent/*/knowledge', 'knowledge'],
  // Attaching an extraction set changes what the agent does: the agent's write, not the knowledge's.
  ['agent/*/extraction-sets', 'agents'],
  ['agent/*/webhooks', 'webhooks'],
  ['agent', 'agents'],
  // The catalog of the tools agents may be given: part of configuring agents, like the voice catalog.
  ['agent-tools', 'agents'],
  ['voice-configurations', 'agents'],
  // The keys an account's agents speak with: part of configuring agents, like the voice catalog.
  ['provider-credentials', 'agents'],
  // The model catalog agents choose from: part of configuring agents, like the voice catalog.
  ['models', 'agents'],
  ['custom-functions', 'agents'],
  // What custom functions authenticate with: configured with them. A customer's connections are the customer's.
  ['connectors', 'agents'],
  ['lifecycle-hooks', 'agents'],
  // Pronunciation dictionaries shape what the account's agents hear and say: part of the agents.
  ['dictionaries', 'agents'],
  // Request and response bodies of the calls' custom functions and hooks, with call variables: call data.
  ['integration-logs', 'calls'],
  ['calls', 'calls'],
  ['browser-sessions', 'calls'],
  // A publishable key creates browser sessions, so making one is the sessions' write.
  ['publishable-keys', 'calls'],
  // SMS are conversations with the account's contacts, as calls are.
  ['messages', 'calls'],
  ['sandbox/inbound-messages', 'calls'],
  ['customers', 'customers'],
  ['campaigns', 'campaigns'],
  // Testing an agent is part of building it: its scenarios and runs (whose sessions bill as calls).
  ['test-scenarios', 'agents'],
  ['test-runs', 'agents'],
  ['do-not-call', 'compliance'],
  ['contact-policy', 'compliance'],
  ['config/webhooks', 'webhooks'],
  ['config/webhook', 'webhooks'],
  ['webhook-deliveries', 'webhooks'],
  ['documents', 'knowledge'],
  ['extraction-sets', 'knowledge'],
  ['uploads', 'knowledge'],
  ['phone-numbers', 'telephony'],
  ['config/telephony', 'telephony'],
  ['telephony-connections', 'telephony'],
  ['inbound-route-policies', 'telephony'],
  ['inbound-route-decisions', 'telephony'],
  ['sandbox/inbound-calls', 'telephony'],
  ['reseller-link', 'telephony'],
  ['billing', 'billing'],
  ['projects', 'projects'],
  ['clients', 'clients'],
];

/** POST routes that only read (searches), so a read scope allows them. */
const READ_POSTS = ['agent/*/knowledge/search'];

const PREFIX = ['api', 'v2'];

/** `/api/v2/agent/:id/documents` or `/api/v2/agent/{id}/documents` -> ['agent', '*', 'documents']. */
function segmentsOf(path: string): string[] | null {
  const parts = path
    .split('?')[0]
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => (s.startsWith(':') || /^\{.*\}$/.test(s) ? '*' : s));
  if (parts.length < PREFIX.length || PREFIX.some((p, i) => parts[i] !== p)) return null;
  return parts.slice(PREFIX.length);
}

function matches(pattern: string, segments: string[], exact = false): boolean {
  const want = pattern.split('/');
  if (want.length > segments.length || (exact && want.length !== segments.length)) return false;
  return want.every((w, i) => w === '*' || w === segments[i]);
}

/** The resource a public route belongs to, or null when no rule maps it. */
export function resourceOfRoute(path: string): ScopeResource | null {
  const segments = segmentsOf(path);
  if (!segments) return null;
  return RESOURCE_RULES.find(([pattern]) => matches(pattern, segments))?.[1] ?? null;
}

/** The scope a request needs, or null: only a key with full access may make it. */
export function requiredScope(method: string, path: string): ResourceScope | null {
  const resource = resourceOfRoute(path);
  if (!resource) return null;
  const m = method.toUpperCase();
  const segments = segmentsOf(path) ?? [];
  const reads =
    m === 'GET' || m === 'HEAD' || (m === 'POST' && READ_POSTS.some((p) => matches(p, segments, true)));
  return `${resource}:${reads ? 'read' : 'write'}`;
}

import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { expandScopes, scopeAllows } from '@vap/messages';
import { IS_PUBLIC } from '@vap/runtime';
import { requiredScope, resourceOfRoute } from './route-scopes';

/** Every route of every gateway controller, from Nest's own metadata (what the router registers). */
async function gatewayRoutes(): Promise<{ method: string; path: string; isPublic: boolean }[]> {
  const root = join(__dirname, '..');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.controller.ts'),
  );
  const routes: { method: string; path: string; isPublic: boolean }[] = [];
  for (const file of files) {
    const mod = (await import(join(root, file))) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (typeof value !== 'function') continue;
      const base = Reflect.getMetadata(PATH_METADATA, value) as string | undefined;
      if (base === undefined) continue;
      const classPublic = Reflect.getMetadata(IS_PUBLIC, value) === true;
      const proto = (value as { prototype: Record<string, unknown> }).prototype;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (typeof handler !== 'function' || name === 'constructor') continue;
        const sub = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (sub === undefined || method === undefined) continue;
        routes.push({
          method: RequestMethod[method],
          path: `/${[base, sub].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/'),
          isPublic: classPublic || Reflect.getMetadata(IS_PUBLIC, handler) === true,
        });
      }
    }
  }
  return routes;
}

describe('route scopes', () => {
  let routes: { method: string; path: string; isPublic: boolean }[];

  beforeAll(async () => {
    routes = await gatewayRoutes();
  });

  it('finds the gateway routes', () => {
    expect(routes.length).toBeGreaterThan(80);
    expect(routes).toContainEqual({ method: 'POST', path: '/api/v2/calls/start', isPublic: false });
  });

  it('maps every API-key route to a scope, so none is open only to full-access keys by omission', () => {
    const unmapped = routes
      .filter((r) => !r.isPublic && r.path.startsWith('/api/v2/'))
      .filter((r) => requiredScope(r.method, r.path) === null)
      .map((r) => `${r.method} ${r.path}`);
    expect(unmapped).toEqual([]);
  });

  it('reads on GET and HEAD, writes on the other methods, reads on the searches that POST', () => {
    expect(requiredScope('GET', '/api/v2/calls/:id')).toBe('calls:read');
    expect(requiredScope('HEAD', '/api/v2/calls')).toBe('calls:read');
    expect(requiredScope('POST', '/api/v2/calls')).toBe('calls:write');
    expect(requiredScope('DELETE', '/api/v2/agent/{id}')).toBe('agents:write');
    expect(requiredScope('POST', '/api/v2/agent/:agentId/documents')).toBe('knowledge:write');
    expect(requiredScope('POST', '/api/v2/agent/:agentId/knowledge/search')).toBe('knowledge:read');
    expect(requiredScope('GET', '/api/v2/agent/:agent_id/webhooks')).toBe('webhooks:read');
    expect(requiredScope('PATCH', '/api/v2/config/webhook')).toBe('webhooks:write');
    expect(requiredScope('GET', '/api/v2/config/telephony/connections')).toBe('telephony:read');
    expect(requiredScope('GET', '/api/v2/telephony-connections/:id')).toBe('telephony:read');
    expect(requiredScope('POST', '/api/v2/telephony-connections/:id/test')).toBe('telephony:write');
    expect(requiredScope('GET', '/api/v2/billing/balance')).toBe('billing:read');
    expect(requiredScope('POST', '/api/v2/billing/top-ups')).toBe('billing:write');
    expect(requiredScope('GET', '/api/v2/projects')).toBe('projects:read');
    // Call data and agent behaviour are not granted by the names of neighbouring resources.
    expect(requiredScope('GET', '/api/v2/integration-logs')).toBe('calls:read');
    expect(requiredScope('GET', '/api/v2/integration-logs/:id')).toBe('calls:read');
    expect(requiredScope('POST', '/api/v2/agent/:agentId/extraction-sets/:setId')).toBe('agents:write');
    expect(requiredScope('DELETE', '/api/v2/agent/:agentId/extraction-sets/:setId')).toBe('agents:write');
    expect(requiredScope('POST', '/api/v2/extraction-sets')).toBe('knowledge:write');
    expect(requiredScope('PATCH', '/api/v2/projects/:id')).toBe('projects:write');
  });

  it('fails closed: a route no rule maps needs full access', () => {
    expect(resourceOfRoute('/api/v2/something-new')).toBeNull();
    expect(requiredScope('GET', '/api/v2/something-new')).toBeNull();
    expect(requiredScope('GET', '/api/v2/configuration')).toBeNull();
    expect(scopeAllows(expandScopes(['read_only']), null)).toBe(false);
    expect(scopeAllows(null, null)).toBe(true);
  });

  it('expands read_only to every read and write to its read', () => {
    const readOnly = expandScopes(['read_only']);
    expect(scopeAllows(readOnly, 'agents:read')).toBe(true);
    expect(scopeAllows(readOnly, 'agents:write')).toBe(false);
    const calls = expandScopes(['calls:write']);
    expect(scopeAllows(calls, 'calls:read')).toBe(true);
    expect(scopeAllows(calls, 'calls:write')).toBe(true);
    expect(scopeAllows(calls, 'agents:write')).toBe(false);
  });
});

// API keys limited to scopes: what each may do through the public API, the 403 that names the missing
// scope, and the operator API's validation of the scopes a key is created with.
import { adminApi, api, createPartner } from '../../support';
import { agentBody, createAgent } from '../agents/agent-fixtures';
import { callee } from '../calls/call-fixtures';

describe('API key scopes', () => {
  let partnerId: string;
  let fullKey: string;
  let agentId: string;

  async function issueKey(scopes?: unknown): Promise<{ key: string; summary: Record<string, unknown> }> {
    const res = await adminApi(`/partners/${partnerId}/api-keys`, {
      method: 'POST',
      body: scopes === undefined ? { name: 'scoped' } : { name: 'scoped', scopes },
    });
    expect(res.status).toBe(200);
    return { key: res.body.data.api_key, summary: res.body.data.key };
  }

  beforeAll(async () => {
    const created = await createPartner({ balance_inr: 100, concurrency_limit: 5 });
    partnerId = created.partner.id;
    fullKey = created.apiKey;
    agentId = (await createAgent(fullKey)).id;
  });

  it('grants call data and agent changes only under the scopes that name them', async () => {
    // Integration logs carry the calls' function and hook bodies with call variables: calls:read, not agents:read.
    const { key: agentsAndKnowledge } = await issueKey(['agents:read', 'knowledge:write']);
    const logs = await api('/integration-logs', { key: agentsAndKnowledge });
    expect(logs.status).toBe(403);
    expect(logs.body.error.message).toBe('This API key lacks the scope calls:read');
    const { key: callsReader } = await issueKey(['calls:read']);
    expect((await api('/integration-logs', { key: callsReader })).status).toBe(200);
    // Attaching an extraction set changes the agent: agents:write, not knowledge:write.
    const attach = await api(`/agent/${agentId}/extraction-sets/00000000-0000-4000-8000-000000000000`, {
      method: 'POST',
      key: agentsAndKnowledge,
    });
    expect(attach.status).toBe(403);
    expect(attach.body.error.message).toBe('This API key lacks the scope agents:write');
    const doc = (await api('/api/v2/openapi.json')).body as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.paths['/api/v2/integration-logs'].get['x-required-scope']).toBe('calls:read');
  });

  it('a read-only key reads but cannot create, change or delete', async () => {
    const { key, summary } = await issueKey(['read_only']);
    expect(summary.scopes).toEqual(['read_only']);
    expect((await api('/agent', { key })).status).toBe(200);
    expect((await api(`/agent/${agentId}`, { key })).status).toBe(200);
    expect((await api('/calls', { key })).status).toBe(200);
    expect((await api('/billing/balance', { key })).status).toBe(200);

    const post = await api('/agent', { method: 'POST', key, body: agentBody() });
    expect(post.status).toBe(403);
    expect(post.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This API key lacks the scope agents:write',
    });
    const patch = await api(`/agent/${agentId}`, {
      method: 'PUT',
      key,
      body: agentBody({ agent_name: 'Renamed' }),
    });
    expect(patch.status).toBe(403);
    expect(patch.body.error.message).toBe('This API key lacks the scope agents:write');
    const del = await api(`/agent/${agentId}`, { method: 'DELETE', key });
    expect(del.status).toBe(403);
    const call = await api('/calls/start', {
      method: 'POST',
      key,
      body: { agent_id: agentId, to_number: callee('00') },
    });
    expect(call.status).toBe(403);
    expect(call.body.error.message).toBe('This API key lacks the scope calls:write');
    // The agent is still there, unchanged.
    const agent = await api(`/agent/${agentId}`, { key: fullKey });
    expect(agent.status).toBe(200);
    expect(agent.body.data.agent_name).not.toBe('Renamed');
  });

  it('a calls-only key starts and reads calls but cannot create agents or read other resources', async () => {
    const { key } = await issueKey(['calls:write']);
    const started = await api('/calls/start', {
      method: 'POST',
      key,
      body: { agent_id: agentId, to_number: callee('00') },
    });
    expect(started.status).toBe(200);
    expect((await api(`/calls/${started.body.data.call_id}`, { key })).status).toBe(200);

    const agent = await api('/agent', { method: 'POST', key, body: agentBody() });
    expect(agent.status).toBe(403);
    expect(agent.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This API key lacks the scope agents:write',
    });
    const webhooks = await api('/config/webhooks', { key });
    expect(webhooks.status).toBe(403);
    expect(webhooks.body.error.message).toBe('This API key lacks the scope webhooks:read');
  });

  it('a key without scopes keeps full access, and listing shows each key’s scopes', async () => {
    const { key, summary } = await issueKey();
    expect(summary.scopes).toBeNull();
    expect((await api('/agent', { method: 'POST', key, body: agentBody() })).status).toBe(200);

    await issueKey(['knowledge:read', 'agents:write', 'knowledge:read']);
    const list = await adminApi(`/partners/${partnerId}/api-keys`);
    expect(list.status).toBe(200);
    const scopes = (list.body.data.api_keys as { scopes: string[] | null }[]).map((k) => k.scopes);
    expect(scopes).toContainEqual(['agents:write', 'knowledge:read']);
    expect(scopes).toContainEqual(null);
  });

  it.each([
    ['an unknown scope', ['calls:write', 'calls:delete']],
    ['an empty list', []],
    ['a scope that is not a string', [42]],
  ])('refuses %s on creation with 400 VALIDATION_ERROR naming scopes', async (_, scopes) => {
    const res = await adminApi(`/partners/${partnerId}/api-keys`, { method: 'POST', body: { scopes } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error.details)).toContain('scopes');
  });

  it('documents the scope and the 403 of every API-key operation in the served OpenAPI document', async () => {
    const doc = (await api('/api/v2/openapi.json')).body as {
      paths: Record<string, Record<string, { security?: Record<string, unknown>[]; [k: string]: unknown }>>;
    };
    const missing: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op.security?.some((s) => 'api_key' in s)) continue;
        checked += 1;
        const responses = op.responses as Record<string, unknown>;
        if (!('x-required-scope' in op) || !responses['403']) missing.push(`${method} ${path}`);
      }
    }
    expect(checked).toBeGreaterThan(80);
    expect(missing).toEqual([]);
    expect(doc.paths['/api/v2/calls/start'].post['x-required-scope']).toBe('calls:write');
    expect(doc.paths['/api/v2/agent'].get['x-required-scope']).toBe('agents:read');
  });
});

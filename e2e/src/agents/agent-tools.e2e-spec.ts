// The agent tool catalog (GET /agent-tools), an agent's tools field (which built-in tools its model may be
// offered) and its effective tool list (GET /agent/{id}/tools): through the gateway, as a partner sees them.
import { randomBytes } from 'node:crypto';
import { api } from '../../support';
import { createAgent, newPartner, randomId } from './agent-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const BUILTIN = ['end_call', 'transfer_call', 'search_knowledge_base', 'opt_out', 'send_dtmf', 'send_sms'];

describe('agent tools', () => {
  let key: string;
  let catalog: Any[];

  beforeAll(async () => {
    ({ key } = await newPartner('standard'));
    const res = await api('/agent-tools', { key });
    expect(res.status).toBe(200);
    catalog = res.body.data.tools;
  });

  const spec = (name: string) => {
    const tool = catalog.find((t) => t.name === name);
    return { name, description: tool.description, parameters: tool.parameters };
  };

  it('lists the built-in tools with what the model is told, their schemas and the settings that shape them', async () => {
    expect(catalog.map((t) => t.name)).toEqual([...BUILTIN, 'handoff_to_{name}']);
    for (const tool of catalog) {
      expect(tool.description.length).toBeGreaterThan(20);
      expect(tool.parameters).toMatchObject({ type: 'object', properties: expect.any(Object) });
      expect(typeof tool.offered_when).toBe('string');
    }
    const transfer = catalog.find((t) => t.name === 'transfer_call');
    expect(transfer).toMatchObject({
      kind: 'builtin',
      title: 'Transfer to a person',
      enabled_by: ['transfer_enabled', 'transfer_number'],
      always_offered: false,
      selectable: true,
    });
    expect(transfer.settings.map((s: Any) => s.field)).toEqual(
      expect.arrayContaining(['transfer_number', 'transfer_mode', 'transfer_message']),
    );
    expect(catalog.find((t) => t.name === 'end_call').settings.map((s: Any) => s.field)).toContain(
      'end_call_message',
    );
    expect(catalog.find((t) => t.name === 'search_knowledge_base').parameters).toMatchObject({
      required: ['query'],
    });
    // Honouring a do-not-call request is not the agent's to switch off.
    expect(catalog.find((t) => t.name === 'opt_out')).toMatchObject({ always_offered: true, enabled_by: [] });
    expect(catalog.find((t) => t.name === 'handoff_to_{name}')).toMatchObject({
      kind: 'handoff',
      selectable: false,
      enabled_by: ['handoffs'],
    });
    const all = await api('/agent-tools', { key });
    expect(all.body.data.custom_functions.description).toContain('/agent/{id}/tools');

    const one = await api('/agent-tools/transfer_call', { key });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(transfer);
    const handoff = await api('/agent-tools/handoff_to_billing', { key });
    expect(handoff.body.data.name).toBe('handoff_to_{name}');
    for (const name of ['hang_up', 'handoff_to_', 'x'.repeat(300)]) {
      const missing = await api(`/agent-tools/${name}`, { key });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('NOT_FOUND');
    }
    expect((await api('/agent-tools')).status).toBe(401);
  });

  it('refuses a tools list naming a tool the catalog does not have, naming it', async () => {
    const created = await api('/agent', {
      method: 'POST',
      key,
      body: {
        agent_name: `Tools ${randomBytes(4).toString('hex')}`,
        prompt: 'You help.',
        voice_id: '72158370-d269-49a5-ae65-8f33fe3b890b',
        agent_type: 'outbound',
        tools: ['end_call', 'hang_up'],
      },
    });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe('VALIDATION_ERROR');
    expect(created.body.error.details).toEqual([
      { field: 'tools', message: expect.stringContaining('unknown tool: "hang_up"') },
    ]);
    const agent = await createAgent(key);
    expect(agent.tools).toBeNull();
    for (const tools of [
      ['handoff_to_billing'],
      ['check_order'],
      'end_call',
      [null],
      ['end_call', 'end_call'],
    ]) {
      const res = await api(`/agent/${agent.id}`, { method: 'PUT', key, body: { tools } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe('tools');
    }
    expect((await api(`/agent/${agent.id}`, { key })).body.data.tools).toBeNull();
  });

  it('answers what an agent’s calls offer the model: allowed built-in tools, handoffs, then functions', async () => {
    const billing = await createAgent(key);
    const fn = await api('/custom-functions', {
      method: 'POST',
      key,
      body: {
        name: `check_order_${randomBytes(3).toString('hex')}`,
        description: 'Looks up an order by its number.',
        url: 'https://orders.example.com/check',
        parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
      },
    });
    expect(fn.status).toBe(200);
    const agent = await createAgent(key, {
      transfer_enabled: true,
      transfer_number: '+919876543210',
      send_dtmf_enabled: true,
      tools: ['transfer_call', 'send_dtmf', 'search_knowledge_base'],
      handoffs: [
        {
          name: 'billing',
          description: 'The caller asks about a bill.',
          agent_id: billing.id,
          context_mode: 'summary',
        },
      ],
    });
    expect(agent.tools).toEqual(['transfer_call', 'send_dtmf', 'search_knowledge_base']);
    const attached = await api(`/agent/${agent.id}/custom-functions/${fn.body.data.id}`, {
      method: 'POST',
      key,
    });
    expect(attached.status).toBe(200);

    const res = await api(`/agent/${agent.id}/tools`, { key });
    expect(res.status).toBe(200);
    const effective = res.body.data;
    expect(effective.agent_id).toBe(agent.id);
    expect(effective.allowed).toEqual(['transfer_call', 'send_dtmf', 'search_knowledge_base']);
    expect(effective.tools.map((t: Any) => [t.name, t.kind])).toEqual([
      ['transfer_call', 'builtin'],
      ['opt_out', 'builtin'],
      ['send_dtmf', 'builtin'],
      ['handoff_to_billing', 'handoff'],
      [fn.body.data.name, 'custom'],
    ]);
    // The built-in tools are offered exactly as the catalog documents them.
    for (const name of ['transfer_call', 'opt_out', 'send_dtmf'])
      expect(effective.tools.find((t: Any) => t.name === name)).toEqual({
        ...spec(name),
        kind: 'builtin',
        function_id: null,
        handoff_agent_id: null,
      });
    expect(effective.tools[3]).toMatchObject({
      handoff_agent_id: billing.id,
      function_id: null,
      description: expect.stringContaining('(billing)'),
      parameters: { required: ['summary'] },
    });
    expect(effective.tools[4]).toEqual({
      name: fn.body.data.name,
      kind: 'custom',
      description: 'Looks up an order by its number.',
      parameters: fn.body.data.parameters,
      function_id: fn.body.data.id,
      handoff_agent_id: null,
    });
    expect(effective.withheld).toEqual([
      { name: 'end_call', reasons: ['tools'] },
      { name: 'search_knowledge_base', reasons: ['settings'] },
      { name: 'send_sms', reasons: ['settings', 'tools'] },
    ]);

    // null: every tool the settings turn on, as for an agent that never had the list.
    const reset = await api(`/agent/${agent.id}`, { method: 'PUT', key, body: { tools: null } });
    expect(reset.body.data.tools).toBeNull();
    const all = (await api(`/agent/${agent.id}/tools`, { key })).body.data;
    expect(all.tools.slice(0, 4).map((t: Any) => t.name)).toEqual([
      'end_call',
      'transfer_call',
      'opt_out',
      'send_dtmf',
    ]);
    expect(all.withheld).toEqual([
      { name: 'search_knowledge_base', reasons: ['settings'] },
      { name: 'send_sms', reasons: ['settings'] },
    ]);
  });

  it('answers 404 for another account’s agent, an unknown one and a malformed id', async () => {
    const agent = await createAgent(key, { tools: ['end_call'] });
    const { key: otherKey } = await newPartner('standard');
    for (const [id, k] of [
      [agent.id, otherKey],
      [randomId(), key],
      ['not-an-id', key],
    ]) {
      const res = await api(`/agent/${id}/tools`, { key: k });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const put = await api(`/agent/${agent.id}`, { method: 'PUT', key: otherKey, body: { tools: [] } });
    expect(put.status).toBe(404);
    expect((await api(`/agent/${agent.id}`, { key })).body.data.tools).toEqual(['end_call']);
  });
});

import {
  BUILTIN_TOOL_CATALOG,
  handoffToolSpec,
  offeredTools,
  type CustomFunctionSnapshot,
  type HandoffSnapshot,
} from '@vap/messages';
import { agentSettings } from '../testing/conversation-harness';
import { BUILTIN_TOOLS } from './builtin';
import { ToolRegistry } from './registry';

const fn = (name: string, id = `fn-${name}`): CustomFunctionSnapshot => ({
  id,
  name,
  description: `The ${name} function.`,
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  timeoutMs: 5000,
  speech: { onStart: null, onDelay: null, delayMs: 2000, onFailure: null },
  async: false,
});

const handoff = (name: string, contextMode: HandoffSnapshot['contextMode']): HandoffSnapshot => ({
  name,
  description: `The caller wants ${name}.`,
  agentId: `agent-${name}`,
  contextMode,
  lastTurns: null,
  variables: null,
});

describe('ToolRegistry', () => {
  it('offers the built-in tools the agent enables, then its functions, each a unit of its kind', () => {
    const registry = new ToolRegistry(
      agentSettings({ hasKnowledge: true, customFunctions: [fn('check_order'), fn('book_table')] }),
    );
    expect(registry.specs.map((t) => t.name)).toEqual([
      'end_call',
      'search_knowledge_base',
      'opt_out',
      'check_order',
      'book_table',
    ]);
    expect(registry.specs[3]).toEqual({
      name: 'check_order',
      description: 'The check_order function.',
      parameters: fn('check_order').parameters,
    });
    expect(registry.get('check_order')).toMatchObject({ kind: 'custom', functionId: 'fn-check_order' });
    expect(registry.get('end_call')).toMatchObject({ kind: 'builtin', functionId: null });
    // Not offered: not runnable either.
    expect(registry.get('transfer_call')).toBeUndefined();
    expect(registry.get('nope')).toBeUndefined();
  });

  it('keeps a built-in tool when a function carries its name, and calls started before functions have none', () => {
    const registry = new ToolRegistry(agentSettings({ customFunctions: [fn('opt_out')] }));
    expect(registry.specs.map((t) => t.name)).toEqual(['end_call', 'opt_out']);
    expect(registry.get('opt_out')?.kind).toBe('builtin');
    const older = agentSettings();
    delete older.customFunctions;
    expect(new ToolRegistry(older).specs.map((t) => t.name)).toEqual(['end_call', 'opt_out']);
  });

  it('has a runner for every tool of the catalog and none besides, each with an acknowledgement where one fits', () => {
    expect(BUILTIN_TOOLS.map((t) => t.name)).toEqual(BUILTIN_TOOL_CATALOG.map((d) => d.name));
    expect(BUILTIN_TOOLS.every((t) => t.kind === 'builtin' && t.functionId === null)).toBe(true);
    expect(BUILTIN_TOOLS.filter((t) => t.ackPhrase).map((t) => t.name)).toEqual([
      'transfer_call',
      'search_knowledge_base',
    ]);
  });

  it('offers the model exactly what the catalog documents: names, descriptions and parameter schemas', () => {
    const everything = agentSettings({
      hasKnowledge: true,
      transferEnabled: true,
      transferNumber: '+1555',
      sendDtmfEnabled: true,
      smsEnabled: true,
      smsAllowedRecipients: 'any',
      handoffs: [handoff('billing', 'summary'), handoff('sales', 'full')],
      customFunctions: [fn('check_order')],
    });
    const registry = new ToolRegistry(everything);
    expect(registry.specs).toEqual([
      ...BUILTIN_TOOL_CATALOG.map((d) => ({
        name: d.name,
        description: d.description,
        parameters: d.parameters,
      })),
      handoffToolSpec(everything.handoffs![0]),
      handoffToolSpec(everything.handoffs![1]),
      {
        name: 'check_order',
        description: 'The check_order function.',
        parameters: fn('check_order').parameters,
      },
    ]);
    // The effective list the API answers (GET /agent/{id}/tools) is the same computation.
    expect(registry.specs).toEqual(
      offeredTools(everything).map(({ name, description, parameters }) => ({
        name,
        description,
        parameters,
      })),
    );
    for (const spec of registry.specs) expect(registry.get(spec.name)?.name).toBe(spec.name);
    expect(registry.specs[BUILTIN_TOOL_CATALOG.length]).toMatchObject({
      name: 'handoff_to_billing',
      parameters: { required: ['summary'] },
    });
  });

  it('offers send_sms a recipient only when the agent may text numbers other than the call', () => {
    const properties = (recipients: 'caller' | 'any') =>
      Object.keys(
        (new ToolRegistry(agentSettings({ smsEnabled: true, smsAllowedRecipients: recipients })).specs.find(
          (t) => t.name === 'send_sms',
        )?.parameters.properties ?? {}) as object,
      );
    expect(properties('caller')).toEqual(['body']);
    expect(properties('any')).toEqual(['body', 'to']);
    expect(new ToolRegistry(agentSettings({ smsEnabled: false })).get('send_sms')).toBeUndefined();
  });

  it('offers a built-in tool only when its settings turn it on and the agent’s tools list names it', () => {
    const agent = agentSettings({
      hasKnowledge: true,
      transferEnabled: true,
      transferNumber: '+1555',
      tools: ['search_knowledge_base', 'send_dtmf'],
      customFunctions: [fn('check_order')],
    });
    // send_dtmf is listed but its setting is off; opt_out is offered whatever the list says.
    expect(new ToolRegistry(agent).specs.map((t) => t.name)).toEqual([
      'search_knowledge_base',
      'opt_out',
      'check_order',
    ]);
    expect(new ToolRegistry(agent).get('end_call')).toBeUndefined();
    expect(new ToolRegistry(agentSettings({ tools: [] })).specs.map((t) => t.name)).toEqual(['opt_out']);
    // null: every tool its settings turn on, as before the list existed.
    expect(new ToolRegistry(agentSettings({ tools: null })).specs.map((t) => t.name)).toEqual([
      'end_call',
      'opt_out',
    ]);
  });
});

import type { CustomFunctionSnapshot } from '@vap/messages';
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

  it('gives each built-in tool a name, a spec of that name and an acknowledgement where one fits', () => {
    const all = agentSettings({
      hasKnowledge: true,
      transferEnabled: true,
      transferNumber: '+1555',
      sendDtmfEnabled: true,
      smsEnabled: true,
    });
    for (const tool of BUILTIN_TOOLS) {
      expect(tool.offered(all)).toBe(true);
      expect(tool.spec(all).name).toBe(tool.name);
    }
    expect(BUILTIN_TOOLS.filter((t) => t.ackPhrase).map((t) => t.name)).toEqual([
      'transfer_call',
      'search_knowledge_base',
    ]);
  });
});

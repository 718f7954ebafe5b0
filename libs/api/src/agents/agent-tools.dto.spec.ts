import { BUILTIN_TOOL_CATALOG, handoffToolSpec } from '@vap/messages';
import { agentToolCatalog, agentToolOf } from './agent-tools.dto';

describe('the agent tool catalog as the API answers it', () => {
  it('lists every built-in tool of the catalog as the model sees it, then the handoff tool', () => {
    const { tools, custom_functions } = agentToolCatalog();
    expect(tools.map((t) => t.name)).toEqual([
      ...BUILTIN_TOOL_CATALOG.map((d) => d.name),
      'handoff_to_{name}',
    ]);
    for (const [i, d] of BUILTIN_TOOL_CATALOG.entries())
      expect(tools[i]).toMatchObject({
        kind: 'builtin',
        description: d.description,
        parameters: d.parameters,
        selectable: true,
        always_offered: d.name === 'opt_out',
      });
    const handoff = tools[tools.length - 1];
    expect(handoff).toMatchObject({ kind: 'handoff', selectable: false, enabled_by: ['handoffs'] });
    expect(handoff.parameters).toEqual(
      handoffToolSpec({ name: 'x', description: 'y', contextMode: 'full' }).parameters,
    );
    expect(custom_functions.description).toContain('GET /agent/{id}/tools');
  });

  it('answers one tool by name, any handoff name as the handoff tool', () => {
    expect(agentToolOf('transfer_call')?.settings.map((s) => s.field)).toContain('transfer_mode');
    expect(agentToolOf('handoff_to_{name}')?.kind).toBe('handoff');
    expect(agentToolOf('handoff_to_billing')?.kind).toBe('handoff');
    expect(agentToolOf('handoff_to_')).toBeUndefined();
    expect(agentToolOf('nope')).toBeUndefined();
  });
});

import type { AgentSnapshot } from '../voice/agent-snapshot';
import {
  agentToolNameProblem,
  BUILTIN_TOOL_CATALOG,
  BUILTIN_TOOL_NAMES,
  offeredTools,
  offersBuiltinTool,
  withheldTools,
} from './agent-tools';

const agent = (overrides: Partial<AgentSnapshot> = {}): AgentSnapshot => ({
  version: 3,
  prompt: 'p',
  voiceId: 'v',
  spokenLanguages: ['en'],
  introMessage: null,
  enableRecording: false,
  maxCallDurationSecs: null,
  endCallEnabled: true,
  endCallMessage: null,
  endCallInstructions: null,
  transferEnabled: false,
  transferNumber: null,
  transferMessage: null,
  transferInstructions: null,
  voicemailDetectionEnabled: false,
  voicemailMessage: null,
  userIdleEnabled: false,
  toolAckConfig: null,
  backgroundAudioId: null,
  backgroundAudioVolume: 0.3,
  kbThreshold: null,
  kbIncludeSummaries: false,
  kbResultFormat: null,
  hasKnowledge: false,
  extractionEnabled: false,
  ...overrides,
});

describe('agent tool catalog', () => {
  it('defines each built-in tool once, with an object schema, its fields and opt_out as the one always offered', () => {
    expect(new Set(BUILTIN_TOOL_NAMES).size).toBe(BUILTIN_TOOL_CATALOG.length);
    for (const tool of BUILTIN_TOOL_CATALOG) {
      expect(tool.name).toMatch(/^[a-z_]+$/);
      expect(tool.parameters).toMatchObject({ type: 'object' });
      expect(tool.description.length).toBeGreaterThan(10);
      expect(tool.offeredWhen.length).toBeGreaterThan(5);
      // What turns a tool on is one of the fields that shape it.
      for (const field of tool.enabledBy)
        expect(tool.settings.map((s) => s.field).includes(field) || field === 'documents').toBe(true);
    }
    expect(BUILTIN_TOOL_CATALOG.filter((t) => t.alwaysOffered).map((t) => t.name)).toEqual(['opt_out']);
  });

  it('offers a built-in tool when its settings turn it on and the agent’s tools allow it; opt_out always', () => {
    const all = agent({
      hasKnowledge: true,
      transferEnabled: true,
      transferNumber: '+1555',
      sendDtmfEnabled: true,
      smsEnabled: true,
    });
    expect(offeredTools(all).map((t) => t.name)).toEqual([...BUILTIN_TOOL_NAMES]);
    const some = agent({ ...all, tools: ['transfer_call'] });
    expect(offeredTools(some).map((t) => t.name)).toEqual(['transfer_call', 'opt_out']);
    expect(withheldTools(some)).toEqual([
      { name: 'end_call', reasons: ['tools'] },
      { name: 'search_knowledge_base', reasons: ['tools'] },
      { name: 'send_dtmf', reasons: ['tools'] },
      { name: 'send_sms', reasons: ['tools'] },
    ]);
    // Transfer needs its number too; a listed tool whose settings are off is still withheld.
    const off = agent({ transferEnabled: true, tools: ['transfer_call', 'send_dtmf'] });
    expect(offersBuiltinTool(off, 'transfer_call')).toBe(false);
    expect(withheldTools(off)).toEqual([
      { name: 'end_call', reasons: ['tools'] },
      { name: 'transfer_call', reasons: ['settings'] },
      { name: 'search_knowledge_base', reasons: ['settings', 'tools'] },
      { name: 'send_dtmf', reasons: ['settings'] },
      { name: 'send_sms', reasons: ['settings', 'tools'] },
    ]);
    expect(offersBuiltinTool(agent({ tools: [] }), 'opt_out')).toBe(true);
    expect(offersBuiltinTool(agent(), 'no_such_tool')).toBe(false);
  });

  it('offers handoffs after the built-in tools, then functions, never a function that takes a taken name', () => {
    const tools = offeredTools(
      agent({
        endCallEnabled: false,
        handoffs: [
          {
            name: 'billing',
            description: 'Bills.',
            agentId: 'a-2',
            contextMode: 'last_turns',
            lastTurns: 4,
            variables: null,
          },
        ],
        customFunctions: ['check_order', 'end_call', 'handoff_to_billing'].map((name) => ({
          id: `fn-${name}`,
          name,
          description: name,
          parameters: { type: 'object' },
          timeoutMs: 1000,
          speech: { onStart: null, onDelay: null, delayMs: 2000, onFailure: null },
          async: false,
        })),
      }),
    );
    expect(tools.map((t) => [t.name, t.kind, t.functionId, t.handoffAgentId])).toEqual([
      ['opt_out', 'builtin', null, null],
      ['handoff_to_billing', 'handoff', null, 'a-2'],
      ['check_order', 'custom', 'fn-check_order', null],
    ]);
    expect(tools[1].description).toBe(
      'Hand the caller over to a colleague (billing), who takes the conversation from here. When: Bills. ' +
        'Tell the caller first.',
    );
  });

  it('names what `tools` may not hold', () => {
    expect(agentToolNameProblem('send_dtmf')).toBeNull();
    expect(agentToolNameProblem('opt_out')).toBeNull();
    expect(agentToolNameProblem('fly')).toMatch(
      /^tools names an unknown tool: "fly"; .*end_call, transfer_call/,
    );
    expect(agentToolNameProblem('handoff_to_billing')).toMatch(
      /"handoff_to_billing".*Handoffs come from handoffs/,
    );
    expect(agentToolNameProblem(7)).toMatch(/unknown tool: 7;/);
    expect(agentToolNameProblem('x'.repeat(500))!.length).toBeLessThan(400);
  });
});

import { AGENT_SNAPSHOT_VERSION } from '@vap/messages';
import type { AgentDto } from './agent.dto';
import { agentSnapshotOf } from './agent-snapshot-of';

const agent = {
  prompt: 'Be brief.',
  tool_ack_config: null,
  turn_taking: { mode: 'patient', min_silence_ms: 600, max_silence_ms: null, ignore_backchannels: false },
  documents: [],
} as unknown as AgentDto;

describe('agentSnapshotOf', () => {
  it("carries the agent's turn_taking to the call", () => {
    expect(agentSnapshotOf(agent).turnTaking).toEqual({
      mode: 'patient',
      minSilenceMs: 600,
      maxSilenceMs: null,
      ignoreBackchannels: false,
    });
  });

  it("carries the agent's speech choices to the call, and none from a record that has none", () => {
    const transcriber = { provider: 'deepgram', model: 'nova-3', keyterms: ['Ravigo'] };
    const speech = {
      ...agent,
      transcriber,
      fallback_transcriber: { provider: 'assemblyai' },
      fallback_voice_ids: ['59a54a7b-b1fe-408f-9712-42425051c1cc'],
      dictionary_ids: ['0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c11'],
    } as unknown as AgentDto;
    expect(agentSnapshotOf(speech)).toMatchObject({
      transcriber,
      fallbackTranscriber: { provider: 'assemblyai' },
      fallbackVoiceIds: ['59a54a7b-b1fe-408f-9712-42425051c1cc'],
      dictionaryIds: ['0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c11'],
    });
    expect(agentSnapshotOf(agent)).toMatchObject({
      transcriber: null,
      fallbackTranscriber: null,
      fallbackVoiceIds: [],
      dictionaryIds: [],
    });
  });

  it("carries the agent's model and fallbacks in camelCase with only the parameters set, none from a record without", () => {
    const chosen = {
      ...agent,
      model: {
        provider: 'anthropic',
        model: 'claude-haiku-4-5',
        temperature: 0.4,
        max_tokens: 300,
        top_p: null,
        voice: null,
      },
      fallback_models: [
        {
          provider: 'openai',
          model: 'gpt-4o-mini',
          temperature: null,
          max_tokens: null,
          top_p: 0.9,
          voice: null,
        },
      ],
    } as unknown as AgentDto;
    const snapshot = agentSnapshotOf(chosen);
    expect(snapshot.model).toEqual({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      temperature: 0.4,
      maxTokens: 300,
    });
    expect(snapshot.fallbackModels).toEqual([{ provider: 'openai', model: 'gpt-4o-mini', topP: 0.9 }]);
    expect(agentSnapshotOf(agent)).toMatchObject({ model: null, fallbackModels: [] });
  });

  it("carries the agent's tools list to the call, null when it has none (every built-in tool)", () => {
    expect(agentSnapshotOf(agent).tools).toBeNull();
    const listed = { ...agent, tools: ['transfer_call'] } as unknown as AgentDto;
    expect(agentSnapshotOf(listed).tools).toEqual(['transfer_call']);
  });

  it('carries the tool acknowledgements, key presses and custom functions in camelCase', () => {
    const full = {
      ...agent,
      tool_ack_config: { enabled: true, mode: 'static', phrases: ['One moment.'], delay_ms: 800 },
      dtmf: { enabled: true, max_digits: 6, terminator: '#', timeout_ms: 2500 },
    } as unknown as AgentDto;
    const fn = {
      id: 'cfn_01',
      name: 'lookup_order',
      description: 'Looks an order up.',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
      timeout_ms: 4000,
      speech: { on_start: 'Let me check.', on_delay: 'Still looking.', delay_ms: 2000, on_failure: null },
      async: true,
    };
    expect(agentSnapshotOf(full, [fn])).toMatchObject({
      toolAckConfig: { enabled: true, mode: 'static', phrases: ['One moment.'], delayMs: 800 },
      dtmf: { enabled: true, maxDigits: 6, terminator: '#', timeoutMs: 2500 },
      customFunctions: [
        {
          id: 'cfn_01',
          name: 'lookup_order',
          description: 'Looks an order up.',
          parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
          timeoutMs: 4000,
          speech: { onStart: 'Let me check.', onDelay: 'Still looking.', delayMs: 2000, onFailure: null },
          async: true,
        },
      ],
    });
  });

  it('carries the post-call analysis settings in camelCase, and none from a record that predates them', () => {
    const analysed = {
      ...agent,
      analysis_config: {
        summary_enabled: false,
        summary_instructions: null,
        success_rubric: 'A visit is booked',
        success_threshold: 8,
      },
    } as unknown as AgentDto;
    expect(agentSnapshotOf(analysed).analysis).toEqual({
      summaryEnabled: false,
      summaryInstructions: null,
      successRubric: 'A visit is booked',
      successThreshold: 8,
    });
    expect(agentSnapshotOf(agent).analysis).toBeUndefined();
  });

  it('writes the current version, every field of its own in camelCase', () => {
    const snapshot = agentSnapshotOf(agent);
    expect(snapshot.version).toBe(AGENT_SNAPSHOT_VERSION);
    expect(Object.keys(snapshot).filter((key) => key.includes('_'))).toEqual([]);
  });
});

import {
  AGENT_SNAPSHOT_VERSION,
  AgentSnapshot,
  CustomFunctionSpec,
  DEFAULT_SPOKEN_LANGUAGES,
  upgradeAgentSnapshot,
} from '@vap/messages';
import { Agent, AgentAttachments, agentSnapshotOf } from './agent.entity';

/** An agent with every setting away from its default, so a setting the snapshot drops cannot go unseen. */
function fullAgent(): Agent {
  return Object.assign(new Agent(), {
    id: 'a0000000-0000-4000-8000-000000000001',
    partnerId: 'b0000000-0000-4000-8000-000000000002',
    projectId: 'c0000000-0000-4000-8000-000000000003',
    agentName: 'Maya',
    prompt: 'Be brief.',
    agentType: 'outbound',
    voiceId: '59a54a7b-b1fe-408f-9712-42425051c1cc',
    spokenLanguages: ['hi', 'en'],
    introMessage: 'Hello',
    voicemailDetectionEnabled: true,
    screenerHandlingEnabled: true,
    voicemailMessage: 'Call me back',
    enableRecording: false,
    kbThreshold: 'high',
    kbIncludeSummaries: true,
    kbResultFormat: 'bullets',
    kbEnableLlmProcessing: true,
    kbLlmSystemPrompt: 'Summarise',
    endCallEnabled: false,
    endCallMessage: 'Goodbye',
    endCallInstructions: 'When done',
    transferEnabled: true,
    transferNumber: '+15559990000',
    transferMessage: 'Transferring',
    transferInstructions: 'When asked',
    transferMode: 'warm',
    transferBriefingInstructions: 'Name the order',
    transferRingTimeoutSecs: 35,
    userIdleEnabled: false,
    toolAckConfig: { enabled: true, mode: 'static', phrases: ['One moment.'], delay_ms: 800 },
    turnTaking: { mode: 'patient', min_silence_ms: 600, max_silence_ms: null, ignore_backchannels: false },
    dtmf: { enabled: true, max_digits: 6, terminator: '#', timeout_ms: 2500 },
    analysisConfig: {
      summary_enabled: false,
      summary_instructions: 'Short',
      success_rubric: 'A visit is booked',
      success_threshold: 8,
    },
    handoffs: [
      {
        name: 'billing',
        description: 'Billing questions',
        agent_id: 'd0000000-0000-4000-8000-000000000004',
        context_mode: 'last_turns',
        last_turns: 4,
        variables: ['order_id'],
      },
    ],
    sendDtmfEnabled: true,
    tools: ['transfer_call'],
    smsEnabled: true,
    smsAllowedRecipients: 'any',
    extractionEnabled: false,
    extractionConfig: { keys: [] },
    maxCallDurationSecs: 300,
    backgroundAudioId: 'e0000000-0000-4000-8000-000000000005',
    backgroundAudioVolume: 0.4,
    webhooksIncludeAccountEndpoints: false,
    transcriber: { provider: 'deepgram', model: 'nova-3', keyterms: ['Ravigo'] },
    fallbackTranscriber: { provider: 'assemblyai' },
    fallbackVoiceIds: ['f0000000-0000-4000-8000-000000000006'],
    dictionaryIds: ['0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c11'],
    model: {
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      temperature: 0.4,
      max_tokens: 300,
      top_p: null,
      voice: null,
    },
    fallbackModels: [
      {
        provider: 'openai',
        model: 'gpt-4o-mini',
        temperature: null,
        max_tokens: null,
        top_p: 0.9,
        voice: null,
      },
    ],
    deletedAt: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-02T00:00:00Z'),
  } satisfies Agent);
}

const lookupOrder: CustomFunctionSpec = {
  id: 'fn_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
  name: 'lookup_order',
  description: 'Looks an order up.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
  timeout_ms: 4000,
  speech: { on_start: 'Let me check.', on_delay: 'Still looking.', delay_ms: 2000, on_failure: null },
  async: true,
};

const attached: AgentAttachments = { customFunctions: [lookupOrder], hasKnowledge: true };

describe('agentSnapshotOf', () => {
  it('carries every setting of the row to the call, camelCase all the way down', () => {
    // Required: every optional field of the snapshot is listed too, so the builder dropping one fails here.
    const expected: Required<AgentSnapshot> = {
      version: AGENT_SNAPSHOT_VERSION,
      prompt: 'Be brief.',
      voiceId: '59a54a7b-b1fe-408f-9712-42425051c1cc',
      spokenLanguages: ['hi', 'en'],
      introMessage: 'Hello',
      enableRecording: false,
      maxCallDurationSecs: 300,
      endCallEnabled: false,
      endCallMessage: 'Goodbye',
      endCallInstructions: 'When done',
      transferEnabled: true,
      transferNumber: '+15559990000',
      transferMessage: 'Transferring',
      transferInstructions: 'When asked',
      voicemailDetectionEnabled: true,
      voicemailMessage: 'Call me back',
      userIdleEnabled: false,
      toolAckConfig: { enabled: true, mode: 'static', phrases: ['One moment.'], delayMs: 800 },
      backgroundAudioId: 'e0000000-0000-4000-8000-000000000005',
      backgroundAudioVolume: 0.4,
      kbThreshold: 'high',
      kbIncludeSummaries: true,
      kbResultFormat: 'bullets',
      hasKnowledge: true,
      extractionEnabled: false,
      turnTaking: { mode: 'patient', minSilenceMs: 600, maxSilenceMs: null, ignoreBackchannels: false },
      customFunctions: [
        {
          id: 'fn_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
          name: 'lookup_order',
          description: 'Looks an order up.',
          parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
          timeoutMs: 4000,
          speech: { onStart: 'Let me check.', onDelay: 'Still looking.', delayMs: 2000, onFailure: null },
          async: true,
        },
      ],
      dtmf: { enabled: true, maxDigits: 6, terminator: '#', timeoutMs: 2500 },
      sendDtmfEnabled: true,
      smsEnabled: true,
      smsAllowedRecipients: 'any',
      fallbackVoiceIds: ['f0000000-0000-4000-8000-000000000006'],
      transcriber: { provider: 'deepgram', model: 'nova-3', keyterms: ['Ravigo'] },
      fallbackTranscriber: { provider: 'assemblyai' },
      dictionaryIds: ['0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c11'],
      analysis: {
        summaryEnabled: false,
        summaryInstructions: 'Short',
        successRubric: 'A visit is booked',
        successThreshold: 8,
      },
      handoffs: [
        {
          name: 'billing',
          description: 'Billing questions',
          agentId: 'd0000000-0000-4000-8000-000000000004',
          contextMode: 'last_turns',
          lastTurns: 4,
          variables: ['order_id'],
        },
      ],
      transfer: { mode: 'warm', briefingInstructions: 'Name the order', ringTimeoutSecs: 35 },
      tools: ['transfer_call'],
      // Only the parameters the agent sets.
      model: { provider: 'anthropic', model: 'claude-haiku-4-5', temperature: 0.4, maxTokens: 300 },
      fallbackModels: [{ provider: 'openai', model: 'gpt-4o-mini', topP: 0.9 }],
    };
    expect(agentSnapshotOf(fullAgent(), attached)).toEqual(expected);
  });

  it('reaches the calls service as it left: JSON over the wire, and read back as the current shape', () => {
    const snapshot = agentSnapshotOf(fullAgent(), attached);
    const received = JSON.parse(JSON.stringify(snapshot)) as AgentSnapshot;
    expect(received).toEqual(snapshot);
    expect(upgradeAgentSnapshot(received)).toEqual(snapshot);
    expect(Object.keys(received).filter((key) => key.includes('_'))).toEqual([]);
  });

  it('gives the platform languages to an agent without its own, and nothing to an agent without extras', () => {
    const plain = Object.assign(fullAgent(), {
      spokenLanguages: [],
      toolAckConfig: null,
      tools: null,
      transcriber: null,
      model: null,
      fallbackModels: [],
      handoffs: [],
    });
    expect(agentSnapshotOf(plain, { customFunctions: [], hasKnowledge: false })).toMatchObject({
      spokenLanguages: [...DEFAULT_SPOKEN_LANGUAGES],
      toolAckConfig: null,
      tools: null,
      transcriber: null,
      model: null,
      fallbackModels: [],
      handoffs: [],
      customFunctions: [],
      hasKnowledge: false,
    });
  });
});

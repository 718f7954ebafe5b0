import { CreateAgentDto } from '@vap/api';
import {
  AGENT_SNAPSHOT_VERSION,
  AgentSnapshot,
  AnalysisDefaults,
  CustomFunctionSpec,
  DEFAULT_SPOKEN_LANGUAGES,
  upgradeAgentSnapshot,
} from '@vap/messages';
import {
  Agent,
  AgentAttachments,
  agentSnapshotOf,
  applyUpdate,
  mergeAnalysis,
  mergeTurnTaking,
  newAgent,
  normalizeToolAck,
} from './agent.entity';

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

const required: CreateAgentDto = {
  agent_name: 'Reception',
  prompt: 'Greet callers.',
  voice_id: '72158370-d269-49a5-ae65-8f33fe3b890b',
  agent_type: 'inbound',
};

describe('normalizeToolAck', () => {
  it('fills omitted sub-fields with their defaults and keeps null as off', () => {
    expect(normalizeToolAck({})).toEqual({ enabled: true, mode: 'dynamic', phrases: [], delay_ms: 1000 });
    expect(normalizeToolAck(null)).toBeNull();
    expect(normalizeToolAck({ mode: 'static', phrases: ['One moment.'], delay_ms: 0 })).toEqual({
      enabled: true,
      mode: 'static',
      phrases: ['One moment.'],
      delay_ms: 0,
    });
  });

  it('drops phrases in dynamic mode, where they are not used', () => {
    expect(normalizeToolAck({ phrases: ['x'] })?.phrases).toEqual([]);
  });
});

describe('mergeTurnTaking', () => {
  const defaults = {
    mode: 'balanced',
    min_silence_ms: null,
    max_silence_ms: null,
    ignore_backchannels: true,
  };
  const patient = { mode: 'patient', min_silence_ms: 600, max_silence_ms: 2000, ignore_backchannels: false };

  it('fills what a creation leaves out from the defaults', () => {
    expect(mergeTurnTaking(defaults as never, {})).toEqual(defaults);
    expect(mergeTurnTaking(defaults as never, { mode: 'fast', max_silence_ms: 700 })).toEqual({
      ...defaults,
      mode: 'fast',
      max_silence_ms: 700,
    });
  });

  it('replaces the fields sent and keeps the others; a null bound goes back to the mode', () => {
    expect(mergeTurnTaking(patient as never, { max_silence_ms: 2400 })).toEqual({
      ...patient,
      max_silence_ms: 2400,
    });
    expect(mergeTurnTaking(patient as never, { min_silence_ms: null, mode: 'fast' })).toEqual({
      ...patient,
      mode: 'fast',
      min_silence_ms: null,
    });
  });

  it('puts every field back to its default on null', () => {
    expect(mergeTurnTaking(patient as never, null)).toEqual(defaults);
  });
});

describe('mergeAnalysis', () => {
  const stored = {
    summary_enabled: false,
    summary_instructions: 'Name the plan.',
    success_rubric: 'A plan is chosen',
    success_threshold: 8,
  };

  it('replaces the fields sent and keeps the others; empty texts are stored as null', () => {
    expect(mergeAnalysis(stored, { success_threshold: 5, summary_instructions: '  ' })).toEqual({
      ...stored,
      summary_instructions: null,
      success_threshold: 5,
    });
    expect(mergeAnalysis(stored, { success_rubric: null })).toEqual({ ...stored, success_rubric: null });
  });

  it('puts every field back to its default on null', () => {
    expect(mergeAnalysis(stored, null)).toEqual(AnalysisDefaults);
  });
});

describe('newAgent', () => {
  it('starts from the contract defaults', () => {
    const agent = newAgent('id-1', 'partner-1', required);
    expect(agent).toMatchObject({
      spokenLanguages: [],
      voicemailDetectionEnabled: true,
      screenerHandlingEnabled: false,
      enableRecording: true,
      kbThreshold: 'medium',
      endCallEnabled: true,
      transferEnabled: false,
      // Existing and new agents transfer cold until told otherwise.
      transferMode: 'cold',
      transferBriefingInstructions: null,
      transferRingTimeoutSecs: 20,
      userIdleEnabled: true,
      extractionEnabled: true,
      maxCallDurationSecs: 600,
      backgroundAudioVolume: 0.3,
      webhooksIncludeAccountEndpoints: true,
      toolAckConfig: { enabled: true, mode: 'dynamic', phrases: [], delay_ms: 1000 },
      turnTaking: { mode: 'balanced', min_silence_ms: null, max_silence_ms: null, ignore_backchannels: true },
      extractionConfig: { keys: [] },
    });
  });

  it('takes the warm transfer settings; a blank briefing instruction is stored as null', () => {
    const agent = newAgent('id-1', 'partner-1', {
      ...required,
      transfer_mode: 'warm_handback',
      transfer_briefing_instructions: '  ',
      transfer_ring_timeout_secs: 12,
    });
    expect(agent).toMatchObject({
      transferMode: 'warm_handback',
      transferBriefingInstructions: null,
      transferRingTimeoutSecs: 12,
    });
  });

  it('takes turn_taking with its omitted fields at their defaults', () => {
    const agent = newAgent('id-1', 'partner-1', {
      ...required,
      turn_taking: { mode: 'patient', min_silence_ms: 700 },
    });
    expect(agent.turnTaking).toEqual({
      mode: 'patient',
      min_silence_ms: 700,
      max_silence_ms: null,
      ignore_backchannels: true,
    });
  });

  it('stores null or blank texts as null and a null volume as 0.3', () => {
    const agent = newAgent('id-1', 'partner-1', {
      ...required,
      intro_message: '',
      voicemail_message: '  ',
      end_call_message: null,
      background_audio_volume: null,
      max_call_duration_secs: null,
      kb_threshold: null,
    });
    expect(agent).toMatchObject({
      introMessage: null,
      voicemailMessage: null,
      endCallMessage: null,
      backgroundAudioVolume: 0.3,
      maxCallDurationSecs: null,
      kbThreshold: null,
    });
  });
});

describe('applyUpdate', () => {
  it('changes the fields present and nothing else', () => {
    const agent = newAgent('id-1', 'partner-1', {
      ...required,
      intro_message: 'Hello',
      enable_recording: false,
    });
    const before = { ...agent };
    applyUpdate(agent, { prompt: 'New prompt', kb_include_summaries: true });
    expect(agent).toEqual({ ...before, prompt: 'New prompt', kbIncludeSummaries: true });
  });

  it('changes only the turn_taking fields sent', () => {
    const agent = newAgent('id-1', 'partner-1', {
      ...required,
      turn_taking: { mode: 'patient', min_silence_ms: 600, max_silence_ms: 2000 },
    });
    applyUpdate(agent, { turn_taking: { ignore_backchannels: false } });
    expect(agent.turnTaking).toEqual({
      mode: 'patient',
      min_silence_ms: 600,
      max_silence_ms: 2000,
      ignore_backchannels: false,
    });
    applyUpdate(agent, { prompt: 'Another prompt' });
    expect(agent.turnTaking.ignore_backchannels).toBe(false);
  });

  it('takes dtmf with its omitted fields at their defaults, merges updates and resets on null', () => {
    const agent = newAgent('id-1', 'partner-1', { ...required, dtmf: { enabled: true, max_digits: 6 } });
    expect(agent.dtmf).toEqual({ enabled: true, max_digits: 6, terminator: '#', timeout_ms: 3000 });
    expect(agent.sendDtmfEnabled).toBe(false);
    applyUpdate(agent, { dtmf: { terminator: null, timeout_ms: 5000 }, send_dtmf_enabled: true });
    expect(agent.dtmf).toEqual({ enabled: true, max_digits: 6, terminator: null, timeout_ms: 5000 });
    expect(agent.sendDtmfEnabled).toBe(true);
    applyUpdate(agent, { dtmf: { max_digits: null } });
    expect(agent.dtmf.max_digits).toBeNull();
    applyUpdate(agent, { dtmf: null });
    expect(agent.dtmf).toEqual({ enabled: false, max_digits: null, terminator: '#', timeout_ms: 3000 });
  });

  it('keeps tools null (every built-in tool) unless a list is given; a list replaces it whole, null restores it', () => {
    const agent = newAgent('id-1', 'partner-1', required);
    expect(agent.tools).toBeNull();
    applyUpdate(agent, { tools: ['end_call', 'send_dtmf'] });
    expect(agent.tools).toEqual(['end_call', 'send_dtmf']);
    applyUpdate(agent, { prompt: 'Another prompt' });
    expect(agent.tools).toEqual(['end_call', 'send_dtmf']);
    applyUpdate(agent, { tools: [] });
    expect(agent.tools).toEqual([]);
    applyUpdate(agent, { tools: null });
    expect(agent.tools).toBeNull();
  });
});

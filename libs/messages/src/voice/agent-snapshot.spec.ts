import {
  AGENT_SNAPSHOT_VERSION,
  AgentSnapshot,
  AgentSnapshotV1,
  AgentSnapshotV2,
  upgradeAgentSnapshot,
} from './agent-snapshot';

/** A snapshot as the calls service stored it before the snapshot had a version (snake_case, unversioned). */
const storedV1: AgentSnapshotV1 = {
  prompt: 'You are Maya, a polite assistant for Acme.',
  voice_id: '59a54a7b-b1fe-408f-9712-42425051c1cc',
  spoken_languages: ['en', 'hi'],
  intro_message: 'Hello, this is Maya from Acme.',
  enable_recording: true,
  max_call_duration_secs: 600,
  end_call_enabled: true,
  end_call_message: 'Goodbye.',
  end_call_instructions: null,
  transfer_enabled: true,
  transfer_number: '+14155550100',
  transfer_message: 'Transferring you now.',
  transfer_instructions: 'When the caller asks for a person.',
  voicemail_detection_enabled: true,
  voicemail_message: 'Please call us back.',
  user_idle_enabled: false,
  tool_ack_config: { enabled: true, mode: 'static', phrases: ['One moment.'], delay_ms: 1000 },
  background_audio_id: null,
  background_audio_volume: 0.3,
  kb_threshold: 'medium',
  kb_include_summaries: false,
  kb_result_format: null,
  has_knowledge: true,
  extraction_enabled: true,
  turn_taking: { mode: 'patient', min_silence_ms: 600, max_silence_ms: null, ignore_backchannels: false },
  custom_functions: [
    {
      id: 'cfn_01',
      name: 'lookup_order',
      description: 'Looks an order up.',
      parameters: { type: 'object', properties: {} },
      timeout_ms: 4000,
      speech: { on_start: 'Let me check.', on_delay: null, delay_ms: 2000, on_failure: null },
      async: false,
    },
  ],
  dtmf: { enabled: true, max_digits: 4, terminator: '#', timeout_ms: 3000 },
  send_dtmf_enabled: true,
  fallback_voice_ids: ['0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c11'],
  transcriber: { provider: 'deepgram', model: 'nova-3' },
  fallback_transcriber: null,
  dictionary_ids: ['d1'],
};

/** The same agent as a release with the versioned camelCase snapshot, before its nested objects were, stored it. */
const storedV2: AgentSnapshotV2 = {
  version: 2,
  prompt: 'You are Maya, a polite assistant for Acme.',
  voiceId: '59a54a7b-b1fe-408f-9712-42425051c1cc',
  spokenLanguages: ['en', 'hi'],
  introMessage: 'Hello, this is Maya from Acme.',
  enableRecording: true,
  maxCallDurationSecs: 600,
  endCallEnabled: true,
  endCallMessage: 'Goodbye.',
  endCallInstructions: null,
  transferEnabled: true,
  transferNumber: '+14155550100',
  transferMessage: 'Transferring you now.',
  transferInstructions: 'When the caller asks for a person.',
  voicemailDetectionEnabled: true,
  voicemailMessage: 'Please call us back.',
  userIdleEnabled: false,
  toolAckConfig: { enabled: true, mode: 'static', phrases: ['One moment.'], delay_ms: 1000 },
  backgroundAudioId: null,
  backgroundAudioVolume: 0.3,
  kbThreshold: 'medium',
  kbIncludeSummaries: false,
  kbResultFormat: null,
  hasKnowledge: true,
  extractionEnabled: true,
  turnTaking: { mode: 'patient', min_silence_ms: 600, max_silence_ms: null, ignore_backchannels: false },
  customFunctions: [
    {
      id: 'cfn_01',
      name: 'lookup_order',
      description: 'Looks an order up.',
      parameters: { type: 'object', properties: {} },
      timeout_ms: 4000,
      speech: { on_start: 'Let me check.', on_delay: null, delay_ms: 2000, on_failure: null },
      async: false,
    },
  ],
  dtmf: { enabled: true, max_digits: 4, terminator: '#', timeout_ms: 3000 },
  sendDtmfEnabled: true,
  fallbackVoiceIds: ['0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c11'],
  transcriber: { provider: 'deepgram', model: 'nova-3' },
  fallbackTranscriber: null,
  dictionaryIds: ['d1'],
};

describe('upgradeAgentSnapshot', () => {
  it("turns an unversioned snake_case snapshot into the current one, every value the call's", () => {
    const expected: AgentSnapshot = {
      version: 3,
      prompt: 'You are Maya, a polite assistant for Acme.',
      voiceId: '59a54a7b-b1fe-408f-9712-42425051c1cc',
      spokenLanguages: ['en', 'hi'],
      introMessage: 'Hello, this is Maya from Acme.',
      enableRecording: true,
      maxCallDurationSecs: 600,
      endCallEnabled: true,
      endCallMessage: 'Goodbye.',
      endCallInstructions: null,
      transferEnabled: true,
      transferNumber: '+14155550100',
      transferMessage: 'Transferring you now.',
      transferInstructions: 'When the caller asks for a person.',
      voicemailDetectionEnabled: true,
      voicemailMessage: 'Please call us back.',
      userIdleEnabled: false,
      toolAckConfig: { enabled: true, mode: 'static', phrases: ['One moment.'], delayMs: 1000 },
      backgroundAudioId: null,
      backgroundAudioVolume: 0.3,
      kbThreshold: 'medium',
      kbIncludeSummaries: false,
      kbResultFormat: null,
      hasKnowledge: true,
      extractionEnabled: true,
      turnTaking: { mode: 'patient', minSilenceMs: 600, maxSilenceMs: null, ignoreBackchannels: false },
      customFunctions: [
        {
          id: 'cfn_01',
          name: 'lookup_order',
          description: 'Looks an order up.',
          parameters: { type: 'object', properties: {} },
          timeoutMs: 4000,
          speech: { onStart: 'Let me check.', onDelay: null, delayMs: 2000, onFailure: null },
          async: false,
        },
      ],
      dtmf: { enabled: true, maxDigits: 4, terminator: '#', timeoutMs: 3000 },
      sendDtmfEnabled: true,
      fallbackVoiceIds: ['0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c11'],
      transcriber: { provider: 'deepgram', model: 'nova-3' },
      fallbackTranscriber: null,
      dictionaryIds: ['d1'],
    };
    expect(upgradeAgentSnapshot(storedV1)).toEqual(expected);
  });

  it('turns a v2 snapshot (camelCase, its nested objects snake_case) into the current one, the same as from v1', () => {
    const upgraded = upgradeAgentSnapshot(storedV2);
    expect(upgraded).toEqual(upgradeAgentSnapshot(storedV1));
    expect(upgraded).toMatchObject({
      version: 3,
      toolAckConfig: { enabled: true, mode: 'static', phrases: ['One moment.'], delayMs: 1000 },
      turnTaking: { mode: 'patient', minSilenceMs: 600, maxSilenceMs: null, ignoreBackchannels: false },
      customFunctions: [
        {
          id: 'cfn_01',
          timeoutMs: 4000,
          speech: { onStart: 'Let me check.', onDelay: null, delayMs: 2000, onFailure: null },
        },
      ],
      dtmf: { enabled: true, maxDigits: 4, terminator: '#', timeoutMs: 3000 },
    });
  });

  it('leaves absent what a v2 snapshot lacks, and keeps a null tool acknowledgement null', () => {
    const { turnTaking, customFunctions, dtmf, ...rest } = storedV2;
    void [turnTaking, customFunctions, dtmf];
    const upgraded = upgradeAgentSnapshot({ ...rest, toolAckConfig: null });
    for (const key of ['turnTaking', 'customFunctions', 'dtmf']) expect(upgraded).not.toHaveProperty(key);
    expect(upgraded.toolAckConfig).toBeNull();
    expect(upgraded.version).toBe(AGENT_SNAPSHOT_VERSION);
  });

  it('leaves absent what a snapshot from before a field existed lacks, so the older-call defaults apply', () => {
    const later = [
      'turn_taking',
      'custom_functions',
      'dtmf',
      'send_dtmf_enabled',
      'fallback_voice_ids',
      'transcriber',
      'fallback_transcriber',
      'dictionary_ids',
    ];
    const oldest = Object.fromEntries(
      Object.entries(storedV1).filter(([key]) => !later.includes(key)),
    ) as unknown as AgentSnapshotV1;
    const upgraded = upgradeAgentSnapshot(oldest);
    for (const key of [
      'turnTaking',
      'customFunctions',
      'dtmf',
      'sendDtmfEnabled',
      'fallbackVoiceIds',
      'transcriber',
      'fallbackTranscriber',
      'dictionaryIds',
    ])
      expect(upgraded).not.toHaveProperty(key);
    expect(upgraded).toMatchObject({ version: AGENT_SNAPSHOT_VERSION, voiceId: storedV1.voice_id });
    expect(Object.keys(upgraded).some((key) => key.includes('_'))).toBe(false);
  });

  it('is camelCase all the way down', () => {
    const keys = (value: unknown, at: string): string[] =>
      value && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, inner]) => [
            `${at}.${key}`,
            // The schema offered to the model is the partner's own JSON.
            ...(key === 'parameters' ? [] : keys(inner, `${at}.${key}`)),
          ])
        : [];
    expect(keys(upgradeAgentSnapshot(storedV1), 'snapshot').filter((key) => key.includes('_'))).toEqual([]);
  });

  it('returns a current snapshot as it is', () => {
    const current = upgradeAgentSnapshot(storedV1);
    expect(upgradeAgentSnapshot(current)).toBe(current);
  });
});

import { CreateAgentDto } from '@vap/api';
import { applyUpdate, newAgent, normalizeToolAck } from './agent-fields';

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
      userIdleEnabled: true,
      extractionEnabled: true,
      maxCallDurationSecs: 600,
      backgroundAudioVolume: 0.3,
      webhooksIncludeAccountEndpoints: true,
      toolAckConfig: { enabled: true, mode: 'dynamic', phrases: [], delay_ms: 1000 },
      extractionConfig: { keys: [] },
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
});

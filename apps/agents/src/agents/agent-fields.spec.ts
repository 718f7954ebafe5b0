import { CreateAgentDto } from '@vap/api';
import { AnalysisDefaults } from '@vap/messages';
import { applyUpdate, mergeAnalysis, mergeTurnTaking, newAgent, normalizeToolAck } from './agent-fields';

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

import {
  HandoffConfig,
  SpokenLanguage,
  TranscriberSettings,
  TurnTakingConfig,
  TurnTakingDefaults,
} from '@vap/messages';
import type { AgentModelDto } from '@vap/api';
import { agentRuleViolations } from './agent-rules';

const ok = {
  transferEnabled: false,
  transferNumber: null,
  screenerHandlingEnabled: false,
  voicemailDetectionEnabled: true,
  turnTaking: TurnTakingDefaults,
  spokenLanguages: [] as SpokenLanguage[],
  voiceId: 'voice-a',
  fallbackVoiceIds: [] as string[],
  transcriber: null as TranscriberSettings | null,
  fallbackTranscriber: null as TranscriberSettings | null,
  id: 'agent-a',
  handoffs: [] as HandoffConfig[],
  model: null as AgentModelDto | null,
  fallbackModels: [] as AgentModelDto[],
};

const turnTaking = (config: Partial<TurnTakingConfig>) => ({
  ...ok,
  turnTaking: { ...TurnTakingDefaults, ...config },
});

const handoff = (name: string, agentId: string): HandoffConfig => ({
  name,
  description: 'When the caller asks',
  agent_id: agentId,
  context_mode: 'full',
  last_turns: null,
  variables: null,
});

describe('agentRuleViolations', () => {
  it('refuses a handoff name given twice, and a handoff to the agent itself', () => {
    expect(
      agentRuleViolations({ ...ok, handoffs: [handoff('billing', 'agent-b'), handoff('sales', 'agent-c')] }),
    ).toEqual([]);
    expect(
      agentRuleViolations({
        ...ok,
        handoffs: [handoff('billing', 'agent-b'), handoff('billing', 'agent-c')],
      }),
    ).toEqual([{ field: 'handoffs.1.name', message: 'handoffs.1.name repeats billing' }]);
    expect(agentRuleViolations({ ...ok, handoffs: [handoff('me', 'agent-a')] })).toEqual([
      {
        field: 'handoffs.0.agent_id',
        message: 'handoffs.0.agent_id is this agent: an agent does not hand off to itself',
      },
    ]);
  });

  it('accepts the defaults', () => {
    expect(agentRuleViolations(ok)).toEqual([]);
  });

  it('needs a transfer number when transfer is enabled', () => {
    expect(agentRuleViolations({ ...ok, transferEnabled: true })).toEqual([
      { field: 'transfer_number', message: expect.stringMatching(/required when transfer_enabled/) },
    ]);
    expect(agentRuleViolations({ ...ok, transferEnabled: true, transferNumber: '+919876543210' })).toEqual(
      [],
    );
  });

  it('keeps a transfer number while transfer is off', () => {
    expect(agentRuleViolations({ ...ok, transferNumber: '+919876543210' })).toEqual([]);
  });

  it('needs voicemail detection for screener handling', () => {
    expect(
      agentRuleViolations({ ...ok, screenerHandlingEnabled: true, voicemailDetectionEnabled: false }),
    ).toEqual([
      {
        field: 'screener_handling_enabled',
        message: expect.stringMatching(/requires voicemail_detection_enabled/),
      },
    ]);
    expect(agentRuleViolations({ ...ok, screenerHandlingEnabled: true })).toEqual([]);
  });

  it('keeps the minimum silence in force at most the maximum in force, the mode filling in either', () => {
    expect(agentRuleViolations(turnTaking({ min_silence_ms: 1500 }))).toEqual([]);
    expect(agentRuleViolations(turnTaking({ min_silence_ms: 800, max_silence_ms: 800 }))).toEqual([]);
    // fast's maximum is 900 ms
    expect(agentRuleViolations(turnTaking({ mode: 'fast', min_silence_ms: 1000 }))).toEqual([
      {
        field: 'turn_taking.min_silence_ms',
        message: expect.stringMatching(/min_silence_ms \(1000\) must not exceed .*900, mode fast's/),
      },
    ]);
    expect(agentRuleViolations(turnTaking({ min_silence_ms: 1200, max_silence_ms: 1000 }))).toEqual([
      {
        field: 'turn_taking.min_silence_ms',
        message: expect.stringMatching(/1000, turn_taking.max_silence_ms/),
      },
    ]);
    // patient's minimum is 500 ms
    expect(agentRuleViolations(turnTaking({ mode: 'patient', max_silence_ms: 300 }))).toEqual([
      {
        field: 'turn_taking.max_silence_ms',
        message: expect.stringMatching(/max_silence_ms \(300\) must not be below .*500, mode patient's/),
      },
    ]);
  });

  it('reports every broken rule at once', () => {
    expect(
      agentRuleViolations({
        ...ok,
        transferEnabled: true,
        transferNumber: null,
        screenerHandlingEnabled: true,
        voicemailDetectionEnabled: false,
        turnTaking: { ...TurnTakingDefaults, min_silence_ms: 2000 },
      }),
    ).toHaveLength(3);
  });

  describe('speech choices', () => {
    const deepgram: TranscriberSettings = { provider: 'deepgram', model: 'nova-3' };

    it('accepts a transcriber of the agent’s languages and a different fallback', () => {
      expect(
        agentRuleViolations({
          ...ok,
          spokenLanguages: ['en', 'hi'],
          transcriber: { ...deepgram, languages: ['hi', 'en'] },
          fallbackTranscriber: { provider: 'assemblyai', languages: ['en'] },
          fallbackVoiceIds: ['voice-b', 'voice-c'],
        }),
      ).toEqual([]);
    });

    it('refuses transcriber languages the agent does not speak, the default spoken language counting when none is set', () => {
      expect(agentRuleViolations({ ...ok, transcriber: { ...deepgram, languages: ['hi'] } })).toEqual([
        {
          field: 'transcriber.languages',
          message: "transcriber.languages may hold only the agent's spoken_languages (en); not hi",
        },
      ]);
      const problems = agentRuleViolations({
        ...ok,
        spokenLanguages: ['en', 'te'],
        transcriber: deepgram,
        fallbackTranscriber: { provider: 'sarvam', languages: ['ta'] },
      });
      expect(problems.map((p) => p.field)).toEqual(['fallback_transcriber.languages']);
    });

    it('needs a transcriber for a fallback transcriber, and a different one', () => {
      expect(agentRuleViolations({ ...ok, fallbackTranscriber: deepgram }).map((p) => p.field)).toEqual([
        'fallback_transcriber',
      ]);
      const same = agentRuleViolations({
        ...ok,
        transcriber: deepgram,
        fallbackTranscriber: { ...deepgram },
      });
      expect(same).toEqual([
        {
          field: 'fallback_transcriber',
          message: 'fallback_transcriber must differ from transcriber (another provider or model)',
        },
      ]);
      expect(
        agentRuleViolations({
          ...ok,
          transcriber: deepgram,
          fallbackTranscriber: { provider: 'deepgram', model: 'nova-2' },
        }),
      ).toEqual([]);
    });

    it('refuses the agent’s own voice among its fallbacks, naming its place', () => {
      expect(agentRuleViolations({ ...ok, fallbackVoiceIds: ['voice-b', 'voice-a'] })).toEqual([
        {
          field: 'fallback_voice_ids',
          message: "fallback_voice_ids[1] is the agent's own voice_id; a fallback must be another voice",
        },
      ]);
    });
  });
});

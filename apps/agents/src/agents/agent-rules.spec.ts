import { TurnTakingConfig, TurnTakingDefaults } from '@vap/messages';
import { agentRuleViolations } from './agent-rules';

const ok = {
  transferEnabled: false,
  transferNumber: null,
  screenerHandlingEnabled: false,
  voicemailDetectionEnabled: true,
  turnTaking: TurnTakingDefaults,
};

const turnTaking = (config: Partial<TurnTakingConfig>) => ({
  ...ok,
  turnTaking: { ...TurnTakingDefaults, ...config },
});

describe('agentRuleViolations', () => {
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
        transferEnabled: true,
        transferNumber: null,
        screenerHandlingEnabled: true,
        voicemailDetectionEnabled: false,
        turnTaking: { ...TurnTakingDefaults, min_silence_ms: 2000 },
      }),
    ).toHaveLength(3);
  });
});

import { agentRuleViolations } from './agent-rules';

const ok = {
  transferEnabled: false,
  transferNumber: null,
  screenerHandlingEnabled: false,
  voicemailDetectionEnabled: true,
};

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

  it('reports every broken rule at once', () => {
    expect(
      agentRuleViolations({
        transferEnabled: true,
        transferNumber: null,
        screenerHandlingEnabled: true,
        voicemailDetectionEnabled: false,
      }),
    ).toHaveLength(2);
  });
});

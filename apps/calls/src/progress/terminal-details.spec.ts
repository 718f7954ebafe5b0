import { defaultDisposition } from './terminal-details';

describe('defaultDisposition', () => {
  it('names a completed call by who answered and why it ended', () => {
    expect(defaultDisposition('completed', 'human')).toBe('completed');
    expect(defaultDisposition('completed', 'machine')).toBe('voicemail');
    expect(defaultDisposition('completed', 'human', 'transferred')).toBe('transferred');
    expect(defaultDisposition('completed', 'human', 'agent_ended_call')).toBe('completed');
  });

  it('follows the status of a call that did not complete', () => {
    expect(defaultDisposition('no_answer', null, 'transferred')).toBe('no_answer');
    expect(defaultDisposition('busy', null)).toBe('busy');
    expect(defaultDisposition('failed', null)).toBe('failed');
  });
});

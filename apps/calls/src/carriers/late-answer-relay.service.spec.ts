import { AddressedSubjects, AppError } from '@vap/messages';
import type { RpcClient } from '@vap/messaging';
import type { AnsweredByChange } from '../progress/call-progress.service';
import { LateAnswerRelay, relaysToVoice } from './late-answer-relay.service';
import { LIVE_SESSION_ASK_TIMEOUT_MS } from '../calls/live-session-ask';

const change = (overrides: Partial<AnsweredByChange> = {}): AnsweredByChange => ({
  previous: 'human',
  next: 'machine',
  mediaStream: 'live',
  ...overrides,
});

describe('relaysToVoice', () => {
  it('relays a machine answer that replaced another on a call in progress with a live stream', () => {
    expect(relaysToVoice(change(), 'in_progress')).toBe(true);
    expect(relaysToVoice(change({ previous: null }), 'in_progress')).toBe(true);
    expect(relaysToVoice(change({ previous: 'unknown' }), 'in_progress')).toBe(true);
  });

  it('relays nothing else: no change, a repeated or human verdict, no live stream, a call not in progress', () => {
    expect(relaysToVoice(undefined, 'in_progress')).toBe(false);
    expect(relaysToVoice(change({ previous: 'machine' }), 'in_progress')).toBe(false);
    expect(relaysToVoice(change({ previous: 'machine', next: 'human' }), 'in_progress')).toBe(false);
    expect(relaysToVoice(change({ next: 'unknown' }), 'in_progress')).toBe(false);
    expect(relaysToVoice(change({ mediaStream: null }), 'in_progress')).toBe(false);
    expect(relaysToVoice(change({ mediaStream: 'ended' }), 'in_progress')).toBe(false);
    expect(relaysToVoice(change(), 'ringing')).toBe(false);
    expect(relaysToVoice(change(), 'completed')).toBe(false);
  });
});

describe('LateAnswerRelay', () => {
  const call = { id: 'call-1', partnerId: 'partner-1' };

  it('sends voice.session.answered_by to the replica holding the call, with a short timeout', async () => {
    const request = jest.fn().mockResolvedValue({ acted: true });
    await new LateAnswerRelay({ request } as unknown as RpcClient).relay(call, change());
    expect(request).toHaveBeenCalledWith(
      AddressedSubjects.voice.answeredBy,
      'partner-1',
      { callId: 'call-1', answeredBy: 'machine' },
      { address: 'call-1', timeoutMs: LIVE_SESSION_ASK_TIMEOUT_MS },
    );
  });

  it('never fails: no responders or a timeout is only logged', async () => {
    const request = jest.fn().mockRejectedValue(AppError.downstream('voice.session.answered_by unavailable'));
    await expect(
      new LateAnswerRelay({ request } as unknown as RpcClient).relay(call, change()),
    ).resolves.toBeUndefined();
  });
});

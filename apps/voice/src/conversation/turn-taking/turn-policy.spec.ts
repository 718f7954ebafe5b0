import type { Utterance } from '../caller-input';
import { FakePort, turnOf } from '../testing/fake-port';
import { BARGE_IN_HOLD_MS, TurnPolicy } from './turn-policy';

function utterance(over: Partial<Utterance> = {}): Utterance {
  return {
    id: 1,
    startedAtMs: 0,
    endedAtMs: null,
    endpointAtMs: null,
    partial: '',
    paused: false,
    ended: false,
    audioMs: 0,
    ...over,
  };
}

/** A port with the agent speaking audibly, and the policy on it; `dropped` counts the turns given up. */
function speaking(ignoreBackchannels = true) {
  const port = new FakePort();
  port.turnTaking.ignoreBackchannels = ignoreBackchannels;
  port.voice.audible = port.voice.busy = true;
  const dropped = { count: 0 };
  const policy = new TurnPolicy(port, () => dropped.count++);
  return { port, policy, dropped };
}

/** The caller's audio runs on for `ms` (the utterance holds it, and the clock moves). */
function talk(port: FakePort, u: Utterance, ms: number): void {
  u.audioMs += ms;
  port.clock.advance(ms);
}

describe('TurnPolicy', () => {
  it('barges in at once when backchannels are not ignored: the turn is dropped and the agent cut', () => {
    const { port, policy, dropped } = speaking(false);
    policy.callerStarted(utterance());
    expect(dropped.count).toBe(1);
    expect(port.voice.interrupts).toBe(1);
    expect(port.observed).toEqual(['barge_in']);
    expect(policy.overlapping).toBe(false);
  });

  it('talks on through sound over the agent, and holds once it lasts BARGE_IN_HOLD_MS', () => {
    const { port, policy, dropped } = speaking();
    const u = utterance();
    policy.callerStarted(u);
    expect(policy.overlapping).toBe(true);
    talk(port, u, BARGE_IN_HOLD_MS - 1);
    expect(port.voice.holding).toBe(false);
    talk(port, u, 1);
    expect(port.voice.holding).toBe(true);
    expect(port.observed).toEqual(['held']);
    expect(dropped.count).toBe(0);
  });

  it('counts the hold in caller audio, not wall time', () => {
    const { port, policy } = speaking();
    const u = utterance();
    policy.callerStarted(u);
    // The clock passes the hold with only half of it in caller audio: the hold waits for the rest.
    u.audioMs += BARGE_IN_HOLD_MS / 2;
    port.clock.advance(BARGE_IN_HOLD_MS);
    expect(port.voice.holding).toBe(false);
    talk(port, u, BARGE_IN_HOLD_MS / 2);
    expect(port.voice.holding).toBe(true);
  });

  it('does not hold for an acknowledgement, and keeps it out of the turns', () => {
    const { port, policy, dropped } = speaking();
    const u = utterance();
    policy.callerStarted(u);
    u.partial = 'yeah';
    expect(policy.callerWords(u)).toBe(true);
    talk(port, u, 2 * BARGE_IN_HOLD_MS);
    expect(port.voice.holding).toBe(false);
    expect(policy.callerFinished(u, 'yeah')).toBe('backchannel');
    expect(port.observed).toEqual(['backchannel']);
    expect(dropped.count).toBe(0);
    expect(policy.overlapping).toBe(false);
  });

  it('releases a hold that turns out to be noise', () => {
    const { port, policy } = speaking();
    const u = utterance();
    policy.callerStarted(u);
    talk(port, u, BARGE_IN_HOLD_MS);
    expect(port.voice.holding).toBe(true);
    expect(policy.callerFinished(u, '')).toBe('backchannel');
    expect(port.voice.holding).toBe(false);
    expect(port.observed).toEqual(['held', 'false_barge_in_recovered']);
  });

  it('gives the floor as soon as the words ask for it', () => {
    const { port, policy, dropped } = speaking();
    const u = utterance();
    policy.callerStarted(u);
    u.partial = 'wait, stop';
    policy.callerWords(u);
    expect(dropped.count).toBe(1);
    expect(port.observed).toEqual(['barge_in']);
    expect(policy.overlapping).toBe(false);
    expect(policy.callerWords(u)).toBe(false);
  });

  it('takes words over the agent that are more than an acknowledgement as the caller turn', () => {
    const { policy, dropped } = speaking();
    const u = utterance();
    policy.callerStarted(u);
    expect(policy.callerFinished(u, 'I would like to change my booking to Friday')).toBe('turn');
    expect(dropped.count).toBe(1);
  });

  it('leaves a committed turn (transfer, end call) and an ending call alone', () => {
    const { port, policy, dropped } = speaking(false);
    port.turn = turnOf(true);
    policy.callerStarted(utterance());
    policy.callerTookFloor();
    expect(dropped.count).toBe(0);
    port.turn = null;
    port.ending = true;
    policy.callerStarted(utterance());
    expect(dropped.count).toBe(0);
    expect(port.voice.interrupts).toBe(0);
  });
});

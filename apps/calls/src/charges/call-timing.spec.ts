import { AgentSnapshot } from '@vap/messages';
import { callTiming } from './call-timing';

const started = new Date('2026-01-01T00:00:00.000Z');
const at = (secs: number) => new Date(started.getTime() + secs * 1000);
const call = (max: number | null, startedAt: Date | null = started) => ({
  startedAt,
  agentSettings: { maxCallDurationSecs: max } as AgentSnapshot,
});

describe('callTiming', () => {
  it('bills nothing for a call that was never answered', () => {
    expect(callTiming(call(60, null), false, at(90), { durationSeconds: 30 })).toEqual({
      durationSeconds: 0,
      billSeconds: 0,
    });
  });

  it('prefers the carrier’s recorded times', () => {
    expect(callTiming(call(600), true, at(90), { durationSeconds: 30, billDurationSeconds: 60 })).toEqual({
      durationSeconds: 30,
      billSeconds: 60,
    });
  });

  it('bills the time seen live when the carrier gave none, capped at the max duration', () => {
    expect(callTiming(call(600), true, at(42.4), {})).toEqual({ durationSeconds: 42, billSeconds: 42 });
    expect(callTiming(call(60), true, at(360), {})).toEqual({ durationSeconds: 60, billSeconds: 60 });
    expect(callTiming(call(null), true, at(360), {})).toEqual({ durationSeconds: 360, billSeconds: 360 });
  });
});

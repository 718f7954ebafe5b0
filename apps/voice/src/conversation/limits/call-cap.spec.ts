import { Phrases } from '../phrases';
import { FakePort } from '../testing/fake-port';
import {
  CAP_FAREWELL_LEAD_MS,
  CAP_HANGUP_MARGIN_MS,
  CAP_PREPARE_AHEAD_SECS,
  watchCallCap,
  WRAP_UP_LEAD_SECS,
} from './call-cap';

function capped(secs: number | null): FakePort {
  const port = new FakePort({ maxCallDurationSecs: secs });
  watchCallCap(port);
  port.events.emit('live', { intro: false });
  return port;
}

describe('watchCallCap', () => {
  it('prepares, wraps up, then says the farewell so the call ends by the cap', () => {
    const cap = 120;
    const port = capped(cap);
    port.clock.advance((cap - WRAP_UP_LEAD_SECS - CAP_PREPARE_AHEAD_SECS) * 1000 - 1);
    expect(port.voice.prepared).toEqual([]);
    port.clock.advance(1);
    expect(port.voice.prepared).toEqual([Phrases.wrapUp, Phrases.maxDurationFarewell]);

    port.clock.advance(CAP_PREPARE_AHEAD_SECS * 1000);
    expect(port.said).toEqual([{ text: Phrases.wrapUp, notice: true }]);

    port.clock.advance(WRAP_UP_LEAD_SECS * 1000 - CAP_FAREWELL_LEAD_MS - 1);
    expect(port.ends).toEqual([]);
    port.clock.advance(1);
    expect(port.ends).toEqual([
      {
        reason: 'max_call_duration_reached',
        farewell: Phrases.maxDurationFarewell,
        options: { interrupt: true, limitMs: CAP_FAREWELL_LEAD_MS - CAP_HANGUP_MARGIN_MS },
      },
    ]);
  });

  it('has no wrap-up for a cap of 30 s or less', () => {
    const port = capped(WRAP_UP_LEAD_SECS);
    port.clock.advance(WRAP_UP_LEAD_SECS * 1000);
    expect(port.voice.prepared).toEqual([Phrases.maxDurationFarewell]);
    expect(port.said).toEqual([]);
    expect(port.ends.map((e) => e.reason)).toEqual(['max_call_duration_reached']);
  });

  it("gives a very short cap's farewell half the call, and hangs up inside it", () => {
    const port = capped(4);
    port.clock.advance(2000 - 1);
    expect(port.ends).toEqual([]);
    port.clock.advance(1);
    expect(port.ends[0].options).toEqual({ interrupt: true, limitMs: 2000 - CAP_HANGUP_MARGIN_MS });
  });

  it('neither prepares nor wraps up once the call is ending', () => {
    const port = capped(120);
    void port.beginEnding('agent_ended_call');
    port.clock.advance(120_000);
    expect(port.voice.prepared).toEqual([]);
    expect(port.said).toEqual([]);
    expect(port.ends).toEqual([]);
  });

  it('sets nothing without a cap', () => {
    expect(capped(null).clock.pending).toBe(0);
    expect(capped(0).clock.pending).toBe(0);
  });
});

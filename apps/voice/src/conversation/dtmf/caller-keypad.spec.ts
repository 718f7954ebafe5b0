import { DtmfSnapshotDefaults, type DtmfSnapshot } from '@vap/messages';
import {
  CallerKeypad,
  KEY_BURST,
  KEY_INTERVAL_MS,
  type KeypadClock,
  type KeypadEntry,
} from './caller-keypad';

/** A hand-driven media clock. */
class ManualClock implements KeypadClock {
  private at = 0;
  private timers: { dueAt: number; callback: () => void; live: boolean }[] = [];
  now(): number {
    return this.at;
  }
  after(mediaMs: number, callback: () => void): () => void {
    const timer = { dueAt: this.at + mediaMs, callback, live: true };
    this.timers.push(timer);
    return () => (timer.live = false);
  }
  advance(ms: number): void {
    this.at += ms;
    for (const timer of this.timers.filter((t) => t.live && t.dueAt <= this.at)) {
      timer.live = false;
      timer.callback();
    }
    this.timers = this.timers.filter((t) => t.live);
  }
}

function keypad(config: Partial<DtmfSnapshot>) {
  const clock = new ManualClock();
  const entries: KeypadEntry[] = [];
  const keys: string[] = [];
  const pad = new CallerKeypad({
    config: { ...DtmfSnapshotDefaults, enabled: true, ...config },
    clock,
    onKey: (key) => keys.push(key),
    onEntry: (entry) => entries.push(entry),
  });
  const press = (digits: string, gapMs = 200) => {
    for (const key of digits) {
      pad.press(key);
      clock.advance(gapMs);
    }
  };
  return { pad, clock, entries, keys, press };
}

describe('CallerKeypad', () => {
  it('ends an entry at the terminator, which is not one of the digits', () => {
    const { entries, press } = keypad({ terminator: '#' });
    press('4711#');
    expect(entries).toEqual([{ digits: '4711', terminator: '#', text: '[keypad] 4711 #', startedAtMs: 0 }]);
  });

  it('ends a fixed-length entry at max_digits, and the next key starts another', () => {
    const { entries, press } = keypad({ maxDigits: 4, terminator: null });
    press('123456');
    expect(entries.map((e) => e.text)).toEqual(['[keypad] 1234']);
    expect(entries[0].terminator).toBeNull();
  });

  it('ends an entry timeout_ms after the last key, timed from each key', () => {
    const { entries, clock, press, pad } = keypad({ timeoutMs: 1000 });
    press('12', 900);
    expect(entries).toEqual([]);
    expect(pad.pending).toBe('12');
    clock.advance(100);
    expect(entries.map((e) => e.text)).toEqual(['[keypad] 12']);
    expect(entries[0].startedAtMs).toBe(0);
  });

  it('hands over a terminator pressed alone', () => {
    const { entries, press } = keypad({ terminator: '*' });
    press('*');
    expect(entries.map((e) => e.text)).toEqual(['[keypad] *']);
  });

  it('takes no keys when disabled or stopped', () => {
    const off = keypad({ enabled: false });
    off.press('12#');
    off.clock.advance(10_000);
    expect(off.entries).toEqual([]);
    expect(off.keys).toEqual([]);
    const on = keypad({});
    on.press('12');
    on.pad.stop();
    on.press('3#');
    on.clock.advance(10_000);
    expect(on.entries).toEqual([]);
  });

  it('caps an entry without a fixed length at 32 digits', () => {
    const { entries, press } = keypad({ maxDigits: null, terminator: null });
    press('1'.repeat(40), KEY_INTERVAL_MS);
    expect(entries[0].digits).toBe('1'.repeat(32));
  });

  it('drops keys beyond a person pace, so a flood starts no flood of entries', () => {
    const { entries, keys, press, clock } = keypad({ maxDigits: 1 });
    press('5'.repeat(1000), 0);
    expect(keys).toHaveLength(KEY_BURST);
    expect(entries).toHaveLength(KEY_BURST);
    clock.advance(KEY_INTERVAL_MS * 2);
    press('5'.repeat(10), 0);
    expect(keys).toHaveLength(KEY_BURST + 2);
  });
});

import { LiveViewSink, LiveViewSource, LiveViewStream, MAX_BUFFERED_BYTES } from './live-view-stream';
import { LiveViewSlots } from './live-view-slots';
import { LiveViewEvents } from './live-view-events';
import { GatewayConfig } from '../config/gateway.config';
import { AppError, ErrorCode } from '@vap/messages';

interface View {
  status: string;
  done: boolean;
}

const TIMING = { recheckMs: 2500, keepaliveMs: 15_000, maxLifetimeMs: 60_000, sessionCheckMs: 30_000 };

/** A response that keeps what was written. */
class Sink implements LiveViewSink {
  chunks: string[] = [];
  ended = 0;
  buffered = 0;
  write(chunk: string): void {
    this.chunks.push(chunk);
  }
  end(): void {
    this.ended++;
  }
  events(): { event: string; data: string }[] {
    return this.chunks
      .filter((c) => c.startsWith('event: '))
      .map((c) => {
        const [event, data] = c.trimEnd().split('\n');
        return { event: event.slice('event: '.length), data: data.slice('data: '.length) };
      });
  }
}

/** The view as the service would answer it, changed by the test. */
class Source implements LiveViewSource<View> {
  view: View | null = { status: 'ringing', done: false };
  reads = 0;
  signedIn = true;
  fail = false;
  fetch(): Promise<View | null> {
    this.reads++;
    if (this.fail) return Promise.reject(new Error('the calls service did not answer'));
    return Promise.resolve(this.view && { ...this.view });
  }
  ended(view: View): boolean {
    return view.done;
  }
  stillSignedIn(): Promise<boolean> {
    return Promise.resolve(this.signedIn);
  }
}

/** Lets the stream's pending promise callbacks run. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('LiveViewStream', () => {
  let sink: Sink;
  let source: Source;
  let released: number;
  let events: LiveViewEvents;

  function open(): LiveViewStream<View> {
    const stream = new LiveViewStream<View>(sink, source, TIMING, () => released++);
    stream.start({ ...source.view! }, (onChange) => events.watch('p1', 'c1', onChange));
    return stream;
  }

  beforeEach(() => {
    jest.useFakeTimers();
    sink = new Sink();
    source = new Source();
    released = 0;
    events = new LiveViewEvents({} as never);
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('sends the first snapshot at once, then one more on each event that changed the view', async () => {
    const stream = open();
    expect(sink.chunks[0]).toBe('retry: 3000\n\n');
    expect(sink.events()).toEqual([{ event: 'snapshot', data: '{"status":"ringing","done":false}' }]);

    events.notify('p1', 'c1'); // nothing changed: nothing sent
    await settle();
    expect(sink.events()).toHaveLength(1);

    source.view = { status: 'in_progress', done: false };
    events.notify('p1', 'c1');
    await settle();
    expect(sink.events().map((e) => JSON.parse(e.data).status)).toEqual(['ringing', 'in_progress']);
    // Another account's call of the same id, or another call, does not wake it.
    source.view = { status: 'completed', done: false };
    events.notify('p2', 'c1');
    events.notify('p1', 'c2');
    await settle();
    expect(sink.events()).toHaveLength(2);
    stream.close();
  });

  it('re-checks on its own, so a missed event never freezes the view', async () => {
    const stream = open();
    source.view = { status: 'in_progress', done: false };
    jest.advanceTimersByTime(TIMING.recheckMs);
    await settle();
    expect(sink.events().map((e) => JSON.parse(e.data).status)).toEqual(['ringing', 'in_progress']);
    stream.close();
  });

  it('ends with event: end once the view is over, and lets go of everything', async () => {
    open();
    source.view = { status: 'completed', done: true };
    events.notify('p1', 'c1');
    await settle();
    expect(sink.events()).toEqual([
      { event: 'snapshot', data: '{"status":"ringing","done":false}' },
      { event: 'snapshot', data: '{"status":"completed","done":true}' },
      { event: 'end', data: '{"reason":"ended"}' },
    ]);
    expect(sink.ended).toBe(1);
    expect(released).toBe(1);
    expect(events.watching).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('ends at once when the first view is already over (no timers, no registration)', () => {
    source.view = { status: 'completed', done: true };
    open();
    expect(sink.events().map((e) => e.event)).toEqual(['snapshot', 'end']);
    expect(released).toBe(1);
    expect(events.watching).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('ends with reason not_found when the view is gone', async () => {
    open();
    source.view = null;
    jest.advanceTimersByTime(TIMING.recheckMs);
    await settle();
    expect(sink.events().at(-1)).toEqual({ event: 'end', data: '{"reason":"not_found"}' });
    expect(released).toBe(1);
  });

  it('keeps going through a failed read', async () => {
    const stream = open();
    source.fail = true;
    jest.advanceTimersByTime(TIMING.recheckMs);
    await settle();
    expect(stream.isClosed).toBe(false);
    source.fail = false;
    source.view = { status: 'in_progress', done: false };
    jest.advanceTimersByTime(TIMING.recheckMs);
    await settle();
    expect(sink.events()).toHaveLength(2);
    stream.close();
  });

  it('never overlaps reads: events during a read cause one more read after it', async () => {
    const stream = open();
    let finish!: (v: View) => void;
    source.fetch = jest.fn(() => {
      source.reads++;
      return new Promise<View>((resolve) => (finish = resolve));
    });
    events.notify('p1', 'c1');
    events.notify('p1', 'c1');
    events.notify('p1', 'c1');
    expect(source.reads).toBe(1);
    finish({ status: 'in_progress', done: false });
    await settle();
    expect(source.reads).toBe(2);
    finish({ status: 'in_progress', done: false });
    await settle();
    expect(source.reads).toBe(2);
    stream.close();
  });

  it('sends a keepalive comment every 15 seconds', () => {
    const stream = open();
    jest.advanceTimersByTime(TIMING.keepaliveMs * 2);
    expect(sink.chunks.filter((c) => c === ': keepalive\n\n')).toHaveLength(2);
    stream.close();
  });

  it('closes without end after its maximum lifetime (the browser reconnects)', () => {
    open();
    jest.advanceTimersByTime(TIMING.maxLifetimeMs);
    expect(sink.ended).toBe(1);
    expect(sink.events().map((e) => e.event)).toEqual(['snapshot']);
    expect(released).toBe(1);
    expect(events.watching).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('closes when the console session is over', async () => {
    open();
    source.signedIn = false;
    jest.advanceTimersByTime(TIMING.sessionCheckMs);
    await settle();
    expect(sink.ended).toBe(1);
    expect(released).toBe(1);
  });

  it('closes rather than buffer for a client that does not read', () => {
    const stream = open();
    sink.buffered = MAX_BUFFERED_BYTES + 1;
    jest.advanceTimersByTime(TIMING.keepaliveMs);
    expect(stream.isClosed).toBe(true);
    expect(released).toBe(1);
  });

  it('lets go of its timers, registration and slot when the client disconnects, once', async () => {
    const stream = open();
    expect(events.watching).toBe(1);
    expect(jest.getTimerCount()).toBe(4);
    stream.close(); // the response's close event
    stream.close();
    expect(events.watching).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    expect(released).toBe(1);
    const reads = source.reads;
    events.notify('p1', 'c1');
    jest.advanceTimersByTime(TIMING.maxLifetimeMs * 2);
    await settle();
    expect(source.reads).toBe(reads);
    expect(sink.ended).toBe(1);
  });
});

describe('LiveViewSlots', () => {
  const config = Object.assign(new GatewayConfig(), {
    CONSOLE_LIVE_STREAMS_PER_SESSION: 2,
    CONSOLE_LIVE_STREAMS_PER_ACCOUNT: 3,
  });

  function refused(fn: () => unknown): AppError {
    try {
      fn();
    } catch (err) {
      return err as AppError;
    }
    throw new Error('not refused');
  }

  it('allows N views per session and M per account, then 429 LIMIT_REACHED; a release frees one', () => {
    const slots = new LiveViewSlots(config);
    const a1 = slots.acquire('s1', 'p1');
    slots.acquire('s1', 'p1');
    const overSession = refused(() => slots.acquire('s1', 'p1'));
    expect(overSession).toBeInstanceOf(AppError);
    expect(overSession.code).toBe(ErrorCode.LIMIT_REACHED);
    expect(overSession.status).toBe(429);
    expect(overSession.message).not.toMatch(/CONSOLE_|stream/);

    slots.acquire('s2', 'p1');
    expect(refused(() => slots.acquire('s3', 'p1')).code).toBe(ErrorCode.LIMIT_REACHED);
    // Another account is counted apart.
    expect(() => slots.acquire('s4', 'p2')).not.toThrow();

    a1();
    a1(); // a second release of the same slot frees nothing more
    expect(slots.open('s1', 'p1')).toEqual({ session: 1, account: 2 });
    expect(() => slots.acquire('s1', 'p1')).not.toThrow();
    expect(slots.open('s1', 'p1')).toEqual({ session: 2, account: 3 });
  });

  it('forgets a session and an account with no view open (bounded)', () => {
    const slots = new LiveViewSlots(config);
    const release = slots.acquire('s1', 'p1');
    release();
    expect(slots.open('s1', 'p1')).toEqual({ session: 0, account: 0 });
    const maps = slots as unknown as { bySession: Map<string, number>; byAccount: Map<string, number> };
    expect(maps.bySession.size).toBe(0);
    expect(maps.byAccount.size).toBe(0);
  });
});

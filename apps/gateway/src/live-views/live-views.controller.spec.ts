import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { AppError, ErrorCode } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext } from '../auth/auth-context';
import { GatewayConfig } from '../config/gateway.config';
import { ConsoleSession, ConsoleSessionsService } from '../console/console-sessions.service';
import { LiveViewEvents } from './live-view-events';
import { LiveViewSlots } from './live-view-slots';
import { LiveViewsController } from './live-views.controller';

const CALL_ID = '5b1f4c1e-3a4e-4b8e-9d7e-0c1f2a3b4c5d';

/** The response as the controller uses it, keeping what was written. */
class FakeResponse extends EventEmitter {
  statusCode = 0;
  headers: Record<string, string> = {};
  written = '';
  writableEnded = false;
  writableLength = 0;
  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }
  flushHeaders(): void {}
  write(chunk: string): boolean {
    this.written += chunk;
    return true;
  }
  end(): void {
    this.writableEnded = true;
    this.emit('close');
  }
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('LiveViewsController', () => {
  const config = Object.assign(new GatewayConfig(), {
    PUBLIC_BASE_URL: 'https://platform.example.test',
    CONSOLE_LIVE_STREAMS_PER_SESSION: 1,
    CONSOLE_LIVE_STREAMS_PER_ACCOUNT: 10,
    CONSOLE_LIVE_RECHECK_MS: 60_000,
    CONSOLE_LIVE_STREAM_MAX_SECONDS: 600,
  });
  const session = { tokenHash: Buffer.from('ab', 'hex'), user: { id: 'u1' } } as unknown as ConsoleSession;
  const auth = { partnerId: 'p1', apiKeyId: 'u1', partner: { id: 'p1' } } as unknown as AuthContext;
  const req = () =>
    ({ destroyed: false, headers: {}, socket: { setNoDelay: () => undefined } }) as unknown as Request;

  let events: LiveViewEvents;
  let slots: LiveViewSlots;
  let answers: (() => Promise<unknown>)[];
  let controller: LiveViewsController;

  const call = (status: string, processingComplete = false) => ({
    call_id: CALL_ID,
    status,
    session: { recording_url: null, processing_complete: processingComplete },
  });

  beforeEach(() => {
    jest.useFakeTimers();
    events = new LiveViewEvents({} as never);
    slots = new LiveViewSlots(config);
    answers = [];
    const rpc = {
      request: jest.fn(() => (answers.shift() ?? (() => Promise.reject(new Error('no answer'))))()),
    } as unknown as RpcClient;
    controller = new LiveViewsController(rpc, config, {} as ConsoleSessionsService, slots, events);
  });

  afterEach(() => jest.useRealTimers());

  it("answers another account's (or an unknown) id as 404 before the stream starts, and frees the slot", async () => {
    answers.push(() => Promise.reject(AppError.notFound('Call')));
    const res = new FakeResponse();
    await expect(
      controller.call(session, auth, CALL_ID, req(), res as unknown as Response),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(res.statusCode).toBe(0);
    expect(res.written).toBe('');
    expect(slots.open('ab', 'p1')).toEqual({ session: 0, account: 0 });
    expect(events.watching).toBe(0);
  });

  it('streams with headers that keep proxies from buffering, and is bounded per session', async () => {
    answers.push(() => Promise.resolve(call('ringing')));
    const res = new FakeResponse();
    await controller.call(session, auth, CALL_ID, req(), res as unknown as Response);
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    expect(res.written).toContain('event: snapshot\ndata: {"call_id"');
    await expect(
      controller.call(session, auth, CALL_ID, req(), new FakeResponse() as unknown as Response),
    ).rejects.toMatchObject({ code: ErrorCode.LIMIT_REACHED, status: 429 });
    // The client goes away: the slot, the registration and the timers are let go.
    res.emit('close');
    expect(slots.open('ab', 'p1')).toEqual({ session: 0, account: 0 });
    expect(events.watching).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('reads again for an event that came during the first read, so no change is lost', async () => {
    let firstRead!: (v: unknown) => void;
    answers.push(() => new Promise((resolve) => (firstRead = resolve)));
    answers.push(() => Promise.resolve(call('completed', true)));
    const res = new FakeResponse();
    const opened = controller.call(session, auth, CALL_ID, req(), res as unknown as Response);
    await settle();
    events.notify('p1', CALL_ID); // the call ended while its first read was under way
    firstRead(call('in_progress'));
    await opened;
    await settle();
    expect(res.written).toContain('"status":"in_progress"');
    expect(res.written).toContain('"status":"completed"');
    expect(res.written.trimEnd().endsWith('event: end\ndata: {"reason":"ended"}')).toBe(true);
    expect(res.writableEnded).toBe(true);
    expect(events.watching).toBe(0);
    expect(slots.open('ab', 'p1')).toEqual({ session: 0, account: 0 });
  });
});

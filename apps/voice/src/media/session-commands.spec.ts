// The addressed session commands over real NATS: the replica holding a call's session answers for it, nobody
// else does (voice.session.end: the farewell; voice.session.answered_by: a late machine answer).
import { randomBytes } from 'node:crypto';
import { AddressedSubjects, AnsweredBy, AppError, ErrorCode } from '@vap/messages';
import { AddressedCommandServer, NatsConnectionService, RpcClient } from '@vap/messaging';
import { Phrases } from '../conversation';
import { CallHarness } from '../conversation/testing/conversation-harness';
import { CommandableSession, SessionCommands } from './session-commands';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const END = AddressedSubjects.voice.sessionEnd;
const ANSWERED_BY = AddressedSubjects.voice.answeredBy;
const TERMINATE = AddressedSubjects.voice.sessionTerminate;

/** A session over the harness's real conversation, finished once the conversation is done. */
function heldSession(call: CallHarness): CommandableSession {
  return {
    callId: 'call-1',
    partnerId: 'partner-1',
    end: (reason) => call.conversation.end(reason),
    terminate: () => call.conversation.terminate(),
    answeredBy: (answeredBy) => call.conversation.answeredBy(answeredBy),
    transferOutcome: (outcome) => call.conversation.transferOutcome?.(outcome) ?? false,
    finished: call.conversation.done.then(() => undefined),
  };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected the command to fail');
}

describe('SessionCommands (real NATS)', () => {
  const prefix = `voicesessioncommands_${randomBytes(4).toString('hex')}`;
  const options = { serviceName: 'voice-spec', url: NATS_URL, subjectPrefix: prefix, requestTimeoutMs: 2000 };
  let replicaNats: NatsConnectionService;
  let callsNats: NatsConnectionService;
  let commands: SessionCommands;
  let rpc: RpcClient;
  let call: CallHarness | undefined;

  beforeAll(async () => {
    // The voice replica and the calls service on connections of their own, as in a deployment.
    replicaNats = new NatsConnectionService(options);
    callsNats = new NatsConnectionService({ ...options, serviceName: 'calls-spec' });
    await replicaNats.onModuleInit();
    await callsNats.onModuleInit();
    commands = new SessionCommands(new AddressedCommandServer(replicaNats));
    rpc = new RpcClient(callsNats, options);
  });

  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  afterAll(async () => {
    await callsNats?.onApplicationShutdown();
    await replicaNats?.onApplicationShutdown();
  });

  describe('voice.session.end', () => {
    it('a held session accepts, says the farewell and hangs up with the reason; a second ask finds it ending', async () => {
      call = new CallHarness({
        agent: { introMessage: 'Hello there.' },
        // The farewell has FAREWELL_START_LIMIT_MS of media time to start: at 4x that is 1.5 s of real time for 0.9 s of speech
        // and its synthesis, enough on a loaded machine (at 20x a slow synthesis ate the budget).
        timeScale: 4,
      }).start();
      await call.until(() => call!.reporter.lines.length === 1, 'the intro');
      commands.serve(heldSession(call));
      await replicaNats.nc.flush();

      const data = { callId: 'call-1', reason: 'insufficient_balance' };
      expect(await rpc.request(END, 'partner-1', data, { address: 'call-1' })).toEqual({ accepted: true });
      expect(await rpc.request(END, 'partner-1', data, { address: 'call-1' })).toEqual({ accepted: false });

      const result = await call.done();
      expect(result.endCallReason).toBe('insufficient_balance');
      expect(call.reporter.hangups).toEqual(['insufficient_balance']);
      expect(call.reporter.lines.at(-1)).toMatchObject({ role: 'bot', content: Phrases.endFarewell });
    });

    it('a call no replica holds gets no responders at once, and neither does a session once finished', async () => {
      call = new CallHarness({ agent: { introMessage: 'Hi.' } }).start();
      const session = heldSession(call);
      commands.serve(session);
      await replicaNats.nc.flush();

      const started = Date.now();
      const unknown = await failure(
        rpc.request(
          END,
          'partner-1',
          { callId: 'call-2', reason: 'insufficient_balance' },
          { address: 'call-2' },
        ),
      );
      expect(unknown.code).toBe(ErrorCode.INTERNAL_ERROR);
      expect(unknown.message).toMatch(/unavailable/);
      expect(Date.now() - started).toBeLessThan(1000);

      call.hangUp();
      await session.finished;
      await new Promise((resolve) => setTimeout(resolve, 50));
      const gone = await failure(
        rpc.request(
          END,
          'partner-1',
          { callId: 'call-1', reason: 'insufficient_balance' },
          { address: 'call-1' },
        ),
      );
      expect(gone.message).toMatch(/unavailable/);
    });

    it("refuses another partner's command and a reason that is not a word, and leaves the call alone", async () => {
      call = new CallHarness({ agent: { introMessage: 'Hi.' } }).start();
      commands.serve(heldSession(call));
      await replicaNats.nc.flush();

      const stranger = await failure(
        rpc.request(
          END,
          'partner-2',
          { callId: 'call-1', reason: 'insufficient_balance' },
          { address: 'call-1' },
        ),
      );
      expect(stranger.code).toBe(ErrorCode.NOT_FOUND);
      const badReason = await failure(
        rpc.request(END, 'partner-1', { callId: 'call-1', reason: 'Out of money!' }, { address: 'call-1' }),
      );
      expect(badReason.code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(call.result).toBeNull();
      expect(call.reporter.hangups).toEqual([]);
    });
  });

  describe('voice.session.terminate', () => {
    it('the held session of an ended call stops at once: no farewell, no hang-up, its reply abandoned', async () => {
      call = new CallHarness({
        agent: { introMessage: 'Hello there.' },
        sttTexts: ['Tell me everything.'],
        model: [
          {
            deltas: Array.from({ length: 6 }, (_, i) => ({
              type: 'text' as const,
              text: `Part ${i} of it. `,
            })),
            delayMs: 150,
          },
        ],
      }).start();
      await call.until(() => call!.reporter.lines.length === 1, 'the intro');
      commands.serve(heldSession(call));
      await replicaNats.nc.flush();
      call.say(400);
      await call.until(() => call!.model.requests.length === 1, 'the reply to be asked for');

      const data = { callId: 'call-1' };
      expect(await rpc.request(TERMINATE, 'partner-1', data, { address: 'call-1' })).toEqual({
        terminated: true,
      });
      const result = await call.done();
      expect(result.endCallReason).toBeNull();
      expect(call.model.aborted).toBe(1);
      expect(call.reporter.hangups).toEqual([]);
      expect(call.tts.requests.map((r) => r.text)).not.toContain(Phrases.endFarewell);
      // Once finished, nobody holds the call.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(
        (await failure(rpc.request(TERMINATE, 'partner-1', data, { address: 'call-1' }))).message,
      ).toMatch(/unavailable/);
    });

    it("refuses another partner's command and leaves the call alone", async () => {
      call = new CallHarness({ agent: { introMessage: 'Hi.' } }).start();
      commands.serve(heldSession(call));
      await replicaNats.nc.flush();
      const stranger = await failure(
        rpc.request(TERMINATE, 'partner-2', { callId: 'call-1' }, { address: 'call-1' }),
      );
      expect(stranger.code).toBe(ErrorCode.NOT_FOUND);
      expect(call.result).toBeNull();
    });
  });

  describe('voice.session.answered_by', () => {
    const ask = (answeredBy: AnsweredBy, partnerId = 'partner-1', callId = 'call-1') =>
      rpc.request(ANSWERED_BY, partnerId, { callId, answeredBy }, { address: callId });

    it('a machine answer: the held session acts, leaves the voicemail message and hangs up; once only', async () => {
      call = new CallHarness({
        agent: { introMessage: 'Hello there.', voicemailMessage: 'Call us back.' },
      }).start();
      await call.until(() => call!.reporter.lines.length === 1, 'the intro');
      commands.serve(heldSession(call));
      await replicaNats.nc.flush();

      expect(await ask('human')).toEqual({ acted: false });
      expect(await ask('machine')).toEqual({ acted: true });
      expect(await ask('machine')).toEqual({ acted: false });

      const result = await call.done();
      expect(result.endCallReason).toBe('voicemail_detected');
      expect(call.reporter.hangups).toEqual(['voicemail_detected']);
      expect(call.reporter.lines.at(-1)).toMatchObject({ role: 'bot', content: 'Call us back.' });
    });

    it('voicemail detection off: nothing is done', async () => {
      call = new CallHarness({
        agent: {
          introMessage: 'Hi.',
          voicemailDetectionEnabled: false,
          voicemailMessage: 'Call us back.',
        },
      }).start();
      await call.until(() => call!.reporter.lines.length === 1, 'the intro');
      commands.serve(heldSession(call));
      await replicaNats.nc.flush();
      expect(await ask('machine')).toEqual({ acted: false });
      expect(call.result).toBeNull();
      expect(call.reporter.hangups).toEqual([]);
    });

    it("no responders for a call nobody holds or a finished session; another partner's or a bad value is refused", async () => {
      call = new CallHarness({ agent: { introMessage: 'Hi.' } }).start();
      const session = heldSession(call);
      commands.serve(session);
      await replicaNats.nc.flush();

      const unknown = await failure(ask('machine', 'partner-1', 'call-2'));
      expect(unknown.code).toBe(ErrorCode.INTERNAL_ERROR);
      expect(unknown.message).toMatch(/unavailable/);
      expect((await failure(ask('machine', 'partner-2'))).code).toBe(ErrorCode.NOT_FOUND);
      const bad = await failure(
        rpc.request(
          ANSWERED_BY,
          'partner-1',
          { callId: 'call-1', answeredBy: 'robot' as AnsweredBy },
          { address: 'call-1' },
        ),
      );
      expect(bad.code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(call.result).toBeNull();

      call.hangUp();
      await session.finished;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await failure(ask('machine'))).message).toMatch(/unavailable/);
    });
  });
});

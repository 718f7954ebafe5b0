// When a call ends, its conversation ends: a platform of the spec's own whose carriers and language model are the
// local fakes. The carrier's signed final status (or a cancel) arriving mid-conversation, and the stale-call
// sweeper ending a call the carrier never reported, must each stop the call's voice session within a second:
// the media socket closed by the platform, no agent audio after, nothing more in the transcript or asked of the
// model; the sweeper also hangs the call up through the carrier's REST API, and the answered time is billed once.
import { waitFor } from '@vap/testing';
import { botLines, LiveCall, userLines, VoiceWorld } from './voice-fixtures';
import { LONG_REPLY, voiceScript } from './voice-script';

const INTRO = 'Hello, this is Maya from Acme.';
/** The stream closes this soon (wall ms) after the call's end has been applied. */
const CLOSE_WITHIN_MS = 1500;
/** Uncapped calls count as stale this soon (wall seconds) in this platform. */
const UNCAPPED_SECS = 10;
const PRICE_PER_MINUTE_PAISE = 400;

describe('a call that ends ends its conversation', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({
      name: 'voice_call_end',
      providers: { llm: true },
      env: {
        STALE_CALL_SWEEP_MS: '500',
        STALE_CALL_GRACE_SECS: '0',
        STALE_CALL_UNCAPPED_SECS: String(UNCAPPED_SECS),
      },
    });
    world.ai.script(voiceScript);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  afterEach(() => {
    world?.fake.delayCallUpdates(0);
  });

  /** The agent is in the middle of its long reply when this resolves. */
  async function midReply(call: LiveCall): Promise<void> {
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Tell me everything about your plans.');
    await call.media.waitForHeard(LONG_REPLY[0]);
  }

  /**
   * After the end was applied (`endedAt`, wall ms): the platform closed the stream in time, the agent's audio
   * stopped with it, and the rest of the reply was never played.
   */
  async function expectStoppedInTime(call: LiveCall, endedAt: number, framesAtEnd: number): Promise<void> {
    const closed = await call.media.waitForClose(CLOSE_WITHIN_MS);
    expect(Date.now() - endedAt).toBeLessThanOrEqual(CLOSE_WITHIN_MS);
    // Closed by the platform (a carrier that ends the stream sends `stop` first; the fake sent none).
    expect(closed).toEqual({ code: 1000, reason: 'call ended' });
    expect(call.media.sent('stop')).toEqual([]);
    // The agent's audio stopped within that second: at most a second of frames at the media clock's pace
    // (the reply had about 20 s of audio left), and the rest of the reply never played.
    const framesAfter = call.media.received('media').length - framesAtEnd;
    expect(framesAfter).toBeLessThan((1000 / 20) * 8);
    expect(call.media.heard.map((h) => h.text)).not.toContain(LONG_REPLY[3]);
  }

  /** Nothing more joins the call's transcript, nor is the model asked anything, for a few seconds more. */
  async function expectNothingAfter(callId: string, chatsAtEnd: number): Promise<void> {
    const settled = (await world.call(callId)).session.transcript;
    const reported = world.tap.reportedLines.filter((l) => l.callId === callId).length;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await world.call(callId)).session.transcript).toEqual(settled);
    expect(world.tap.reportedLines.filter((l) => l.callId === callId)).toHaveLength(reported);
    expect(world.ai.chats).toHaveLength(chatsAtEnd);
    // What was said before the end stays, the agent's reply cut to what was played.
    expect(userLines(settled).map((e: { content: string }) => e.content)).toEqual([
      'Tell me everything about your plans.',
    ]);
    const last = botLines(settled).at(-1);
    expect(LONG_REPLY.join(' ').startsWith(last.content)).toBe(true);
    expect(last.content).not.toContain(LONG_REPLY[3]);
  }

  it("the callee's signed completed mid-reply: the socket closes within a second, no audio or transcript after", async () => {
    const agent = await world.agent();
    const call = await world.dial('carrier_b', agent.id);
    await midReply(call);

    const framesAtEnd = call.media.received('media').length;
    const chatsAtEnd = world.ai.chats.length;
    const seconds = String(Math.max(1, Math.round(call.media.mediaMs / 1000)));
    const res = await world.fake.callbackB(call.placed, {
      CallStatus: 'completed',
      CallDuration: seconds,
      SequenceNumber: '9',
    });
    expect(res.status).toBe(200);
    const endedAt = Date.now();
    expect((await world.call(call.callId)).status).toBe('completed');

    await expectStoppedInTime(call, endedAt, framesAtEnd);
    // The caller speaks on: nobody is listening any more.
    await call.media.say('Hello? Are you still there?');
    const done = await world.finished(call.callId);
    expect(done.duration_seconds).toBe(Number(seconds));
    await expectNothingAfter(call.callId, chatsAtEnd);
    // The carrier ended the call: the platform does not hang it up again.
    expect(world.fake.hangups.filter((h) => h.id === call.carrierId)).toEqual([]);
  });

  it('a cancel from the carrier mid-reply ends the conversation the same way', async () => {
    const agent = await world.agent();
    const call = await world.dial('carrier_b', agent.id);
    await midReply(call);

    const framesAtEnd = call.media.received('media').length;
    const chatsAtEnd = world.ai.chats.length;
    const res = await world.fake.callbackB(call.placed, {
      CallStatus: 'canceled',
      CallDuration: String(Math.max(1, Math.round(call.media.mediaMs / 1000))),
      SequenceNumber: '9',
    });
    expect(res.status).toBe(200);
    const endedAt = Date.now();
    expect((await world.call(call.callId)).status).toBe('canceled');

    await expectStoppedInTime(call, endedAt, framesAtEnd);
    await waitFor(async () => (await world.call(call.callId)).session?.processing_complete || undefined, {
      timeoutMs: 30_000,
      description: 'the canceled call to be processed',
    });
    await expectNothingAfter(call.callId, chatsAtEnd);
  });

  it('the stale sweeper hangs a live uncapped call up through the carrier, ends its session and bills the answered time once', async () => {
    const agent = await world.agent({ max_call_duration_secs: null });
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    // The carrier is slow to act on a hang-up (and so to end the stream): what closes the stream first is the
    // platform ending the voice session, not the carrier.
    world.fake.delayCallUpdates(4000);

    const failed = await waitFor(
      async () => {
        const c = await world.call(call.callId);
        return c.status === 'failed' ? c : undefined;
      },
      {
        timeoutMs: (UNCAPPED_SECS + 20) * 1000,
        intervalMs: 100,
        description: 'the sweeper to fail the call',
      },
    );
    const endedAt = Date.now();
    expect(failed).toMatchObject({ hangup_cause: 'NO_FINAL_STATUS', hangup_source: 'system' });
    const closed = await call.media.waitForClose(CLOSE_WITHIN_MS);
    expect(closed).toEqual({ code: 1000, reason: 'call ended' });
    expect(Date.now() - endedAt).toBeLessThanOrEqual(CLOSE_WITHIN_MS);
    expect(world.fake.hangups.filter((h) => h.id === call.carrierId)).toEqual([]);

    // The real call is hung up through the carrier's REST API.
    const hangup = await world.fake.waitForHangup(call.placed.providerCallId, 15_000);
    expect(hangup).toEqual({ provider: 'carrier_b', id: call.placed.providerCallId, status: 'completed' });

    // Billed for what was answered (the platform's own measure: from the answer to the sweep), once.
    const processed = await waitFor(
      async () => {
        const c = await world.call(call.callId);
        return c.session?.processing_complete ? c : undefined;
      },
      { timeoutMs: 30_000, description: 'the swept call to be processed' },
    );
    const billed = processed.bill_duration_seconds as number;
    expect(billed).toBeGreaterThanOrEqual(UNCAPPED_SECS - 3);
    expect(billed).toBeLessThanOrEqual(UNCAPPED_SECS + 5);
    expect(processed.session.credits_used).toBe(Math.ceil((billed * PRICE_PER_MINUTE_PAISE) / 60) / 100);
    // The carrier's own final status after the hang-up changes nothing: the call was ended and billed once.
    const late = await world.fake.callbackB(call.placed, {
      CallStatus: 'completed',
      CallDuration: String(billed + 30),
      SequenceNumber: '9',
    });
    expect(late.status).toBe(200);
    expect(await world.call(call.callId)).toMatchObject({
      status: 'failed',
      bill_duration_seconds: billed,
      session: { credits_used: processed.session.credits_used },
    });
  });
});

// What the agent says unprompted on a carrier_b call into the voice service, on the call's media clock: the reprompt
// and goodbye to a silent caller (user_idle_enabled), the wrap-up and farewell of max_call_duration_secs, and the
// acknowledgement while a slow tool runs (tool_ack_config). The sandbox carrier's phone streams the caller's side
// without a break, silence included, as a carrier does; the calls service is the typed fake peer, which records the
// hang-up the voice service asks for (the carrier's hang-up is the calls service's own spec).
import { AgentSnapshot, Subjects, VoiceTranscriptRequest, VoiceTransferRequest } from '@vap/messages';
import { spokenAudio } from '@vap/carrier-sim';
import { voiceScript } from '@vap/llm/testing';
import { waitFor } from '@vap/testing';
import { CarrierCall, CarrierCalls, PhoneRun } from '../testing/carrier-calls';
import { useVoiceWithScriptedModel } from '../testing/voice-integration';
import { IDLE_REPROMPT_MS } from './idle/idle-controller';
import { WRAP_UP_LEAD_SECS } from './limits/call-cap';
import { Phrases } from './phrases';

const INTRO = 'Hello, this is Maya from Acme.';
const TRANSFER_TO = '+919811112222';
// Media at eight times real time (as the e2e's carriers run it): a minute of the call is under eight seconds.
const ENV = { MEDIA_TIME_SCALE: '8', DRAIN_DEADLINE_MS: '1000', PROVIDER_ALLOW_PRIVATE_NETWORKS: 'true' };

const botLines = (lines: VoiceTranscriptRequest[]) => lines.filter((l) => l.role === 'bot');

describe('what the agent says unprompted on a carrier_b call', () => {
  let calls: CarrierCalls;
  /** Wall ms the fake calls service takes to answer calls.voice.transfer (a slow carrier). */
  let transferDelayMs = 0;
  const { voice, model } = useVoiceWithScriptedModel(voiceScript, ENV);

  beforeAll(() => {
    calls = new CarrierCalls(voice);
    voice.peers.answer(Subjects.calls.voiceTransfer, async () => {
      await new Promise((resolve) => setTimeout(resolve, transferDelayMs));
      return { transferred: true };
    });
  });

  afterEach(() => {
    transferDelayMs = 0;
  });

  /** A call whose intro has played; the callee says nothing unless the spec has it speak. */
  async function dial(agent: Partial<AgentSnapshot>): Promise<{ call: CarrierCall; run: PhoneRun }> {
    const call = calls.call({ introMessage: INTRO, ...agent });
    const run = calls.dial(call);
    await calls.played(call, INTRO);
    return { call, run };
  }

  /** The agent lines the voice service reported, in the order said, once `count` of them have been. */
  const agentLines = (call: CarrierCall, count: number, timeoutMs = 30_000) =>
    waitFor(
      () => {
        const lines = botLines(calls.transcript(call.callId)).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
        return lines.length >= count ? lines : undefined;
      },
      { timeoutMs, intervalMs: 20, description: `${count} agent lines` },
    );

  /** The hang-up the voice service asked the calls service for. */
  const hungUpFor = (call: CarrierCall) =>
    waitFor(() => calls.hangups(call.callId)[0], { description: 'the voice service to ask for the hang-up' });

  /** The cold transfer the voice service asked the calls service for. */
  const transferAsked = (call: CarrierCall) =>
    waitFor(
      () =>
        voice.peers.received
          .filter((r) => r.subject === Subjects.calls.voiceTransfer)
          .map((r) => r.data as VoiceTransferRequest)
          .find((r) => r.callId === call.callId),
      { description: 'the voice service to ask for the transfer' },
    );

  it('user idle: a silent caller is asked once, then told goodbye and the call hung up (user_idle_timeout)', async () => {
    const { call, run } = await dial({ userIdleEnabled: true });
    const [intro, reprompt, goodbye] = await agentLines(call, 3);
    expect([reprompt.content, goodbye.content]).toEqual([Phrases.idleReprompt, Phrases.idleGoodbye]);
    // Each after the idle silence of media time since the line before it ended (a line takes a second or more).
    expect(reprompt.atMs - intro.atMs).toBeGreaterThanOrEqual(IDLE_REPROMPT_MS);
    expect(goodbye.atMs - reprompt.atMs).toBeGreaterThanOrEqual(IDLE_REPROMPT_MS);
    expect(await hungUpFor(call)).toMatchObject({ reason: 'user_idle_timeout' });
    await calls.hangUp(call, run);
    expect(calls.ended(call.callId)[0]).toMatchObject({ endCallReason: 'user_idle_timeout' });
    expect(calls.transcript(call.callId).filter((l) => l.role === 'user')).toEqual([]);
  });

  it('user idle: a caller who speaks before the silence runs out is answered, and the count starts over', async () => {
    const { call, run } = await dial({ userIdleEnabled: true });
    await run.phone.pause(IDLE_REPROMPT_MS / 2);
    await run.phone.play(spokenAudio('I am still thinking.'));
    await calls.played(call, 'You said I am still thinking.');
    const [, answer, reprompt] = await agentLines(call, 3);
    expect(reprompt.content).toBe(Phrases.idleReprompt);
    expect(reprompt.atMs - answer.atMs).toBeGreaterThanOrEqual(IDLE_REPROMPT_MS);
    expect(calls.hangups(call.callId)).toEqual([]);
    await calls.hangUp(call, run);
  });

  it('user idle disabled: nothing is said on a long silence and the call stays up', async () => {
    const { call, run } = await dial({ userIdleEnabled: false });
    // Past the reprompt and the goodbye an enabled agent would have said.
    await run.phone.pause(3 * IDLE_REPROMPT_MS);
    expect(botLines(calls.transcript(call.callId)).map((l) => l.content)).toEqual([INTRO]);
    expect(run.phone.heard).toEqual([INTRO]);
    expect(calls.hangups(call.callId)).toEqual([]);
    expect(calls.ended(call.callId)).toEqual([]);
    await calls.hangUp(call, run);
    expect(calls.ended(call.callId)[0]).toMatchObject({ endCallReason: null });
  });

  it('max duration: a wrap-up line 30 s before the cap, a farewell that ends by the cap, then the hang-up (max_call_duration_reached)', async () => {
    const capSecs = 45;
    const { call, run } = await dial({ maxCallDurationSecs: capSecs });
    const [, wrapUp, farewell] = await agentLines(call, 3);
    expect(wrapUp.content).toBe(Phrases.wrapUp);
    // A farewell still playing when the cap nears is cut there rather than billed past it (a busy machine's late
    // frames): the line is what played of it.
    expect(farewell.content.length).toBeGreaterThan(0);
    expect(Phrases.maxDurationFarewell.startsWith(farewell.content)).toBe(true);
    // Timers fire late, never early; media time since the stream opened.
    expect(wrapUp.atMs).toBeGreaterThanOrEqual((capSecs - WRAP_UP_LEAD_SECS) * 1000);
    expect(wrapUp.atMs).toBeLessThan((capSecs - WRAP_UP_LEAD_SECS + 5) * 1000);
    expect(farewell.atMs).toBeGreaterThan(wrapUp.atMs);
    expect(farewell.atMs).toBeLessThan(capSecs * 1000);
    const hangup = await hungUpFor(call);
    expect(hangup).toMatchObject({ reason: 'max_call_duration_reached' });
    await calls.hangUp(call, run);
    expect(calls.ended(call.callId)[0]).toMatchObject({ endCallReason: 'max_call_duration_reached' });
  });

  it('tool ack: a static phrase while a slow transfer runs; none when tool_ack_config is null', async () => {
    const transferring: Partial<AgentSnapshot> = {
      transferEnabled: true,
      transferNumber: TRANSFER_TO,
      transferMessage: 'Connecting you to a colleague now.',
    };
    // 2.5 s of wall time is 20 s of media at this scale: well past the 300 ms the agent waits before acknowledging.
    transferDelayMs = 2500;
    const acking = await dial({
      ...transferring,
      toolAckConfig: { enabled: true, mode: 'static', phrases: ['Please hold on a moment.'], delayMs: 300 },
    });
    await acking.run.phone.play(spokenAudio('I need a human.'));
    await calls.played(acking.call, 'Please hold on a moment.');
    expect(await transferAsked(acking.call)).toMatchObject({ to: TRANSFER_TO });
    await calls.hangUp(acking.call, acking.run);

    transferDelayMs = 500;
    const quiet = await dial({ ...transferring, toolAckConfig: null });
    await quiet.run.phone.play(spokenAudio('I need a human.'));
    await calls.played(quiet.call, 'Connecting you to a colleague now.');
    expect(await transferAsked(quiet.call)).toMatchObject({ to: TRANSFER_TO });
    // Past when an acknowledgement would have come.
    await quiet.run.phone.pause(2000);
    expect(botLines(calls.transcript(quiet.call.callId)).map((l) => l.content)).not.toContain(
      'Please hold on a moment.',
    );
    // Both agents were offered the transfer on the caller's words (the scripted model takes it when offered).
    const asked = model().chats.filter((c) => c.messages.at(-1)?.content === 'I need a human.');
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const chat of asked) expect(chat.tools.map((t) => t.function?.name)).toContain('transfer_call');
    await calls.hangUp(quiet.call, quiet.run);
  });
});

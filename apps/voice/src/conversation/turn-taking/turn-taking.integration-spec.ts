// Turn-taking on a carrier_b call into the voice service: the sandbox carrier's phone speaks the caller's lines as
// offline speech (whose words the offline STT reads as they arrive, as a streaming provider's interim results would
// give them) and the scripted language model answers. What a caller would feel: backchannels do not stop the agent,
// "wait" does, noise stops it and it picks up again, a finished question is answered sooner than an unfinished
// sentence, and an early reply the caller's later words contradict is never heard.
import { AgentSnapshot, TurnTakingSnapshotDefaults, VoiceTranscriptRequest } from '@vap/messages';
import { spokenAudio, voiceBuzz } from '@vap/carrier-sim';
import { EARLY_ANSWER, LONG_REPLY, voiceScript } from '@vap/llm/testing';
import { waitFor } from '@vap/testing';
import { CarrierCall, CarrierCalls, PhoneRun } from '../../testing/carrier-calls';
import { useVoiceWithScriptedModel, voiceMetricSum } from '../../testing/voice-integration';

const INTRO = 'Hello, this is Maya from Acme.';
const REPLY = LONG_REPLY.join(' ');
// The agents service gives a new agent these (its agent entity spec); balanced waits 250 ms of silence after a
// finished sentence, 1500 after a trailing "for".
const AGENT: Partial<AgentSnapshot> = { introMessage: INTRO, turnTaking: TurnTakingSnapshotDefaults };
// Media at eight times real time: both ends of the line share this process's event loop, and at that pace a busy
// loop still delivers the agent's audio frames whole (the phone reads its sentences from their text signal).
const ENV = { MEDIA_TIME_SCALE: '8', DRAIN_DEADLINE_MS: '1000', PROVIDER_ALLOW_PRIVATE_NETWORKS: 'true' };

type Line = VoiceTranscriptRequest;
const botLines = (lines: Line[]) => lines.filter((l) => l.role === 'bot');
const userLines = (lines: Line[]) => lines.filter((l) => l.role === 'user');

describe('turn-taking on a carrier_b call', () => {
  let calls: CarrierCalls;
  const { voice, model } = useVoiceWithScriptedModel(voiceScript, ENV);

  beforeAll(() => {
    calls = new CarrierCalls(voice);
  });

  /** How many times the voice service counted the turn-taking decision `event`. */
  const turnTakingEvents = (event: string) =>
    voiceMetricSum(voice, 'voice_turn_taking_events_total', `event="${event}"`);

  /** The caller says `text`: the voice with the offline text signal under it, as the e2e's carriers speak. */
  const say = (run: PhoneRun, text: string) => run.phone.play(spokenAudio(text));

  /** Waits until the phone has read `text` from the agent's audio. */
  const heard = (run: PhoneRun, text: string) =>
    waitFor(() => run.phone.heard.includes(text) || undefined, {
      timeoutMs: 30_000,
      intervalMs: 10,
      description: `the phone to hear "${text}" (heard so far: ${JSON.stringify(run.phone.heard)})`,
    });

  /** The agent finished its turn: a line read, then a pause. */
  async function agentDone(run: PhoneRun): Promise<void> {
    expect(await run.phone.listen(30_000)).not.toBeNull();
  }

  /** The call's transcript lines (in the order said) once `ready` holds of them. */
  const transcript = (call: CarrierCall, ready: (lines: Line[]) => boolean) =>
    waitFor(
      () => {
        const lines = calls.transcript(call.callId).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
        return ready(lines) ? lines : undefined;
      },
      { description: 'the transcript lines' },
    );

  async function dial(): Promise<{ call: CarrierCall; run: PhoneRun }> {
    const call = calls.call(AGENT);
    const run = calls.dial(call);
    await heard(run, INTRO);
    await agentDone(run);
    return { call, run };
  }

  /** A call whose agent has started its long reply (the first sentence was heard). */
  async function agentMidReply(): Promise<{ call: CarrierCall; run: PhoneRun }> {
    const line = await dial();
    await say(line.run, 'Tell me everything about your plans.');
    await heard(line.run, LONG_REPLY[0]);
    return line;
  }

  it('a backchannel over the agent does not stop it, is not answered, and stays in the transcript', async () => {
    const { call, run } = await agentMidReply();
    await say(run, 'Yeah.');
    await heard(run, LONG_REPLY[3]);
    await agentDone(run);
    expect(run.phone.clears).toBe(0);

    const lines = await transcript(call, (l) => l.some((x) => x.content === REPLY));
    const reply = botLines(lines).find((l) => l.content === REPLY)!;
    expect(reply.interrupted).toBeUndefined();
    expect(userLines(lines).map((l) => l.content)).toEqual(['Tell me everything about your plans.', 'Yeah.']);
    // The model was never asked to answer it.
    expect(model().chats.some((c) => c.messages.at(-1)?.content === 'Yeah.')).toBe(false);
    await calls.hangUp(call, run);
  });

  it('"wait" stops the agent at once, and the caller is answered', async () => {
    const bargeIns = await turnTakingEvents('barge_in');
    const { call, run } = await agentMidReply();
    await say(run, 'Wait.');
    await heard(run, 'You said Wait.');
    expect(run.phone.clears).toBeGreaterThanOrEqual(1);
    expect(run.phone.heard).not.toContain(LONG_REPLY[3]);
    // Cut on the word, not held for its sound first.
    expect(await turnTakingEvents('barge_in')).toBe(bargeIns + 1);

    const lines = await transcript(call, (l) => l.some((x) => x.content === 'You said Wait.'));
    const cut = botLines(lines).find((l) => l.content && REPLY.startsWith(l.content) && l.content !== REPLY)!;
    expect(cut.interrupted).toBe(true);
    await calls.hangUp(call, run);
  });

  it('a noise burst stops the agent, which then says the cut sentence again and finishes its reply', async () => {
    const recovered = await turnTakingEvents('false_barge_in_recovered');
    const { call, run } = await agentMidReply();
    const heardBefore = run.phone.heard.length;
    await run.phone.play(voiceBuzz(1500));
    await heard(run, LONG_REPLY[3]);
    await agentDone(run);
    expect(run.phone.clears).toBeGreaterThanOrEqual(1);
    // Every sentence not heard before the noise, the one it cut included, was heard whole after it (words are
    // only read from a whole sentence).
    const before = run.phone.heard.slice(0, heardBefore);
    const after = run.phone.heard.slice(heardBefore);
    const unheard = LONG_REPLY.filter((s) => !before.includes(s));
    expect(unheard.length).toBeGreaterThanOrEqual(2);
    expect(after).toEqual(expect.arrayContaining(unheard));
    expect(await turnTakingEvents('false_barge_in_recovered')).toBe(recovered + 1);

    const lines = await transcript(call, (l) => l.some((x) => x.content === REPLY));
    expect(botLines(lines).find((l) => l.content === REPLY)!.interrupted).toBeUndefined();
    // Sound without words is no turn and no transcript line.
    expect(userLines(lines)).toHaveLength(1);
    await calls.hangUp(call, run);
  });

  it('answers a finished question sooner than an unfinished sentence, and says where the wait went', async () => {
    const { call, run } = await dial();
    await say(run, 'What are your opening hours?');
    await heard(run, 'You said What are your opening hours.');
    await agentDone(run);
    await say(run, 'I want to book a table for');
    await heard(run, 'You said I want to book a table for.');
    await agentDone(run);

    const lines = await transcript(call, (l) => botLines(l).length >= 3);
    const [, complete, incomplete] = botLines(lines);
    expect(AGENT.turnTaking).toMatchObject({ mode: 'balanced', minSilenceMs: null, maxSilenceMs: null });
    // Balanced waits 250 ms after a finished sentence and 1500 after a trailing "for". Timers fire late, never early,
    // so the long wait has a floor; the short one is judged against it, not against a ceiling of its own: at eight
    // times real time a timer 75 ms late on a busy machine is 600 ms of media time (a run measured 856).
    expect(incomplete.latency!.endpointing_ms).toBeGreaterThanOrEqual(1400);
    expect(complete.latency!.endpointing_ms).toBeLessThan(incomplete.latency!.endpointing_ms);
    expect(complete.latency!.voice_to_voice_ms).toBeLessThan(incomplete.latency!.voice_to_voice_ms);
    for (const { latency } of [complete, incomplete]) {
      // Nothing is heard before the endpoint or the final transcript.
      expect(latency!.first_frame_out_ms).toBeGreaterThanOrEqual(latency!.endpointing_ms);
      expect(latency!.first_frame_out_ms).toBeGreaterThanOrEqual(latency!.stt_final_ms);
    }
    await calls.hangUp(call, run);
  });

  it("never plays an early reply that the caller's later words contradict", async () => {
    const discarded = await turnTakingEvents('early_reply_discarded');
    const { call, run } = await dial();
    // "Book a table." looks finished, so the model starts on it at the pause; 140 ms later (before the 250 ms
    // endpoint) the caller goes on.
    const first = spokenAudio('Book a table.');
    const gap = new Int16Array(8 * 140);
    const second = spokenAudio('For two people.');
    const line = new Int16Array(first.length + gap.length + second.length);
    line.set(first, 0);
    line.set(second, first.length + gap.length);
    await run.phone.play(line);
    await heard(run, 'For two people.');
    await agentDone(run);
    // The model was asked on the pause's words, and its answer to them never played.
    expect(model().chats.some((c) => c.messages.at(-1)?.content === 'Book a table.')).toBe(true);
    expect(run.phone.heard).not.toContain(EARLY_ANSWER);
    expect(run.phone.heard).toEqual([INTRO, 'You said Book a table.', 'For two people.']);
    expect(await turnTakingEvents('early_reply_discarded')).toBeGreaterThan(discarded);

    const lines = await transcript(call, (l) => botLines(l).length >= 2);
    expect(userLines(lines).map((l) => l.content)).toEqual(['Book a table. For two people.']);
    expect(botLines(lines).map((l) => l.content)).toEqual([INTRO, 'You said Book a table. For two people.']);
    await calls.hangUp(call, run);
  });
});

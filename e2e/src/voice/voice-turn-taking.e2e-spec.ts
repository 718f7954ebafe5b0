// Turn-taking on a live carrier_b call, end to end through the gateway: the fake carrier speaks the caller's lines
// as offline speech (whose words the platform's offline STT reads as they arrive, as a streaming provider's interim
// results would give them) and the fake OpenAI-compatible model answers. What a caller would feel: backchannels do
// not stop the agent, "wait" does, noise stops it and it picks up again, a finished question is answered sooner
// than an unfinished sentence, and an early reply the caller's later words contradict is never heard.
import { spokenAudio, voiceBuzz } from '../../support/fake-media';
import { botLines, LiveCall, userLines, VoiceWorld } from './voice-fixtures';
import { EARLY_ANSWER, LONG_REPLY, voiceScript } from './voice-script';

const INTRO = 'Hello, this is Maya from Acme.';
const REPLY = LONG_REPLY.join(' ');

describe('voice turn-taking on carrier_b', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({ name: 'voice_turn_taking', providers: { llm: true } });
    world.ai.script(voiceScript);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  /** The sum of a counter's series on the voice app's /metrics with a label value. */
  async function turnTakingEvents(event: string): Promise<number> {
    const res = await fetch(`${world.own.platform.services.voice!.url}/metrics`);
    let sum = 0;
    for (const line of (await res.text()).split('\n')) {
      if (line.startsWith('voice_turn_taking_events_total{') && line.includes(`event="${event}"`))
        sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return sum;
  }

  /** A call whose agent has started its long reply (the first sentence was heard). */
  async function agentMidReply(): Promise<LiveCall> {
    const agent = await world.agent();
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Tell me everything about your plans.');
    await call.media.waitForHeard(LONG_REPLY[0]);
    return call;
  }

  async function hangUp(call: LiveCall): Promise<void> {
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
  }

  it('a backchannel over the agent does not stop it, is not answered, and stays in the transcript', async () => {
    const call = await agentMidReply();
    await call.media.say('Yeah.');
    await call.media.waitForHeard(LONG_REPLY[3]);
    await call.media.waitUntilAgentSilent();
    expect(call.media.clears).toBe(0);

    const entries = await world.transcript(call.callId, (e) => e.some((x) => x.content === REPLY));
    const reply = botLines(entries).find((e) => e.content === REPLY);
    expect(reply.interrupted).toBeUndefined();
    expect(userLines(entries).map((e) => e.content)).toEqual([
      'Tell me everything about your plans.',
      'Yeah.',
    ]);
    // The model was never asked to answer it.
    expect(world.ai.chats.some((c) => c.messages.at(-1)?.content === 'Yeah.')).toBe(false);
    await hangUp(call);
  });

  it('"wait" stops the agent at once, and the caller is answered', async () => {
    const bargeIns = await turnTakingEvents('barge_in');
    const call = await agentMidReply();
    await call.media.say('Wait.');
    await call.media.waitForHeard('You said Wait.');
    expect(call.media.clears).toBeGreaterThanOrEqual(1);
    expect(call.media.heard.map((h) => h.text)).not.toContain(LONG_REPLY[3]);
    // Cut on the word, not held for its sound first.
    expect(await turnTakingEvents('barge_in')).toBe(bargeIns + 1);

    const entries = await world.transcript(call.callId, (e) => e.some((x) => x.content === 'You said Wait.'));
    const cut = botLines(entries).find(
      (e) => e.content && REPLY.startsWith(e.content) && e.content !== REPLY,
    );
    expect(cut.interrupted).toBe(true);
    await hangUp(call);
  });

  it('a noise burst stops the agent, which then says the cut sentence again and finishes its reply', async () => {
    const recovered = await turnTakingEvents('false_barge_in_recovered');
    const call = await agentMidReply();
    const heardBefore = call.media.heard.length;
    await call.media.play(voiceBuzz(1500));
    await call.media.waitForHeard(LONG_REPLY[3]);
    await call.media.waitUntilAgentSilent();
    expect(call.media.clears).toBeGreaterThanOrEqual(1);
    // Every sentence not heard before the noise, the one it cut included, was heard whole after it (words are
    // only read from a whole sentence).
    const before = call.media.heard.slice(0, heardBefore).map((h) => h.text);
    const after = call.media.heard.slice(heardBefore).map((h) => h.text);
    const unheard = LONG_REPLY.filter((s) => !before.includes(s));
    expect(unheard.length).toBeGreaterThanOrEqual(2);
    expect(after).toEqual(expect.arrayContaining(unheard));
    expect(await turnTakingEvents('false_barge_in_recovered')).toBe(recovered + 1);

    const entries = await world.transcript(call.callId, (e) => e.some((x) => x.content === REPLY));
    expect(botLines(entries).find((e) => e.content === REPLY).interrupted).toBeUndefined();
    // Sound without words is no turn and no transcript line.
    expect(userLines(entries)).toHaveLength(1);
    await hangUp(call);
  });

  it('answers a finished question sooner than an unfinished sentence, and says where the wait went', async () => {
    const agent = await world.agent();
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('What are your opening hours?');
    await call.media.waitForHeard('You said What are your opening hours.');
    await call.media.waitUntilAgentSilent();
    await call.media.say('I want to book a table for');
    await call.media.waitForHeard('You said I want to book a table for.');
    await call.media.waitUntilAgentSilent();

    const entries = await world.transcript(call.callId, (e) => botLines(e).length >= 3);
    const [, complete, incomplete] = botLines(entries);
    const agentRes = await world.api(`/agent/${agent.id}`);
    expect(agentRes.body.data.turn_taking).toMatchObject({ mode: 'balanced' });
    // balanced: 250 ms of silence after a finished sentence, 1500 after a trailing "for".
    expect(complete.latency.endpointing_ms).toBeLessThan(400);
    expect(incomplete.latency.endpointing_ms).toBeGreaterThanOrEqual(1400);
    expect(complete.latency.voice_to_voice_ms).toBeLessThan(incomplete.latency.voice_to_voice_ms);
    for (const { latency } of [complete, incomplete]) {
      // Nothing is heard before the endpoint or the final transcript.
      expect(latency.first_frame_out_ms).toBeGreaterThanOrEqual(latency.endpointing_ms);
      expect(latency.first_frame_out_ms).toBeGreaterThanOrEqual(latency.stt_final_ms);
    }
    await hangUp(call);
  });

  it("never plays an early reply that the caller's later words contradict", async () => {
    const discarded = await turnTakingEvents('early_reply_discarded');
    const agent = await world.agent();
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    // "Book a table." looks finished, so the model starts on it at the pause; 140 ms later (before the 250 ms
    // endpoint) the caller goes on.
    const first = spokenAudio('Book a table.');
    const gap = new Int16Array(8 * 140);
    const second = spokenAudio('For two people.');
    const line = new Int16Array(first.length + gap.length + second.length);
    line.set(first, 0);
    line.set(second, first.length + gap.length);
    await call.media.play(line);
    await call.media.waitForHeard('For two people.');
    await call.media.waitUntilAgentSilent();
    // The model was asked on the pause's words, and its answer to them never played.
    expect(world.ai.chats.some((c) => c.messages.at(-1)?.content === 'Book a table.')).toBe(true);
    expect(call.media.heard.map((h) => h.text)).not.toContain(EARLY_ANSWER);
    expect(call.media.heard.map((h) => h.text)).toEqual([INTRO, 'You said Book a table.', 'For two people.']);
    expect(await turnTakingEvents('early_reply_discarded')).toBeGreaterThan(discarded);

    const entries = await world.transcript(call.callId, (e) => botLines(e).length >= 2);
    expect(userLines(entries).map((e) => e.content)).toEqual(['Book a table. For two people.']);
    expect(botLines(entries).map((e) => e.content)).toEqual([
      INTRO,
      'You said Book a table. For two people.',
    ]);
    await hangUp(call);
  });
});

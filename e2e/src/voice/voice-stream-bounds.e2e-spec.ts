// What one media stream may cost a voice replica: a carrier connection that floods, goes quiet, stops reading or
// speaks a newer protocol is bounded (or tolerated) without touching anyone else's call. Driven like the other
// voice specs: calls through the gateway, the fake carriers' media clients on the platform's media endpoint.
import { MediaStreamEndReasons } from '@vap/messages';
import { MULAW_FRAME_BYTES, mulawEncode, sineWave } from '@vap/media';
import { waitFor } from '@vap/testing';
import { LiveCall, Provider, TIME_SCALE, VoiceWorld } from './voice-fixtures';
import { voiceScript } from './voice-script';

const INTRO = 'Hello, this is Maya from Acme.';
/** Wall ms; small so that the specs wait seconds, not the production defaults. */
const SILENCE_MS = 1500;
const PING_INTERVAL_MS = 1000;
/** 500 wall ms of burst is 4 s of media at the specs' MEDIA_TIME_SCALE. */
const BURST_MS = 500;

describe('media stream bounds', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({
      name: 'voice_bounds',
      providers: { stt: 'openai', llm: true },
      env: {
        MEDIA_INBOUND_SILENCE_MS: String(SILENCE_MS),
        MEDIA_PING_INTERVAL_MS: String(PING_INTERVAL_MS),
        MEDIA_AUDIO_BURST_MS: String(BURST_MS),
      },
    });
    world.ai.script(voiceScript);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  /** A call whose intro has played, the agent quiet again. */
  async function liveCall(provider: Provider): Promise<LiveCall> {
    const agent = await world.agent();
    const call = await world.dial(provider, agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    return call;
  }

  /** The sum of a counter's series on the voice app's /metrics, optionally those with a label value. */
  async function voiceCounter(name: string, label?: string): Promise<number> {
    const res = await fetch(`${world.own.platform.services.voice!.url}/metrics`);
    const text = await res.text();
    let sum = 0;
    for (const line of text.split('\n')) {
      if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
      if (label && !line.includes(label)) continue;
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return sum;
  }

  async function endReasonOf(call: LiveCall): Promise<string> {
    await world.hungUpByPlatform(call);
    return (await world.finished(call.callId)).end_call_reason;
  }

  it.each(['carrier_b', 'carrier_a'] as const)(
    '%s: a message far over what a carrier sends closes the stream (1009) and ends the call',
    async (provider) => {
      const call = await liveCall(provider);
      // One 200 KB "frame", as seen in the field: 25 s of audio in a single media message.
      call.media.flood(Buffer.alloc(200_000, 0xff), 200_000);
      const closed = await call.media.waitForClose();
      expect(closed.code).toBe(1009);
      expect(await endReasonOf(call)).toBe(MediaStreamEndReasons.protocolError);
    },
  );

  it('audio sent faster than real time is dropped beyond the burst allowance and counted; the call goes on', async () => {
    const droppedBefore = await voiceCounter('voice_inbound_audio_dropped_seconds_total');
    const call = await liveCall('carrier_b');
    const transcriptionsBefore = world.ai.transcriptions.length;
    // 20 s of loud tone (speech to the detector) in carrier-sized frames, all at once: over the audio's budget,
    // not over what the stream may send in messages.
    const floodSeconds = 20;
    call.media.flood(mulawEncode(sineWave(300, floodSeconds * 8000)), MULAW_FRAME_BYTES);
    // The line goes quiet after it: the utterance ends and is transcribed.
    const transcription = await waitFor(() => world.ai.transcriptions[transcriptionsBefore], {
      timeoutMs: 30_000,
      description: 'the flooded utterance to be transcribed',
    });
    // Only the burst (4 s of media) and what the clock allowed while the flood arrived reached the utterance,
    // not the 20 s sent.
    expect(transcription.durationMs).toBeLessThan(10_000);
    const dropped = (await voiceCounter('voice_inbound_audio_dropped_seconds_total')) - droppedBefore;
    expect(dropped).toBeGreaterThan(floodSeconds - 10);
    expect(dropped).toBeLessThanOrEqual(floodSeconds);

    // The stream was not cut for it: the caller is still heard and answered.
    await call.media.waitUntilAgentSilent();
    await call.media.say('What are your opening hours?');
    await call.media.waitForHeard('You said What are your opening hours.');
    expect(call.media.closed).toBeNull();
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
  });

  it.each(['carrier_b', 'carrier_a'] as const)(
    '%s: events of unknown types are ignored and counted; the conversation carries on',
    async (provider) => {
      const ignoredBefore = await voiceCounter(
        'voice_media_messages_ignored_total',
        `protocol="${provider}"`,
      );
      const call = await liveCall(provider);
      const id = provider === 'carrier_b' ? { streamSid: 'MZunknown' } : { streamId: 'unknown' };
      call.media.sendFrame({ event: 'transcription', ...id, transcription: { text: 'hello' } });
      call.media.sendFrame({ event: 'someFutureEvent', sequenceNumber: '99' });
      await call.media.say('I would like to know my order status.');
      await call.media.waitForHeard('You said I would like to know my order status.');
      expect(call.media.closed).toBeNull();
      expect(await voiceCounter('voice_media_messages_ignored_total', `protocol="${provider}"`)).toBe(
        ignoredBefore + 2,
      );
      call.media.hangUp();
      await world.complete(call, call.media.mediaMs / 1000, 'callee');
      expect((await world.finished(call.callId)).end_call_reason).toBeNull();
    },
  );

  it('a carrier that goes quiet has its stream closed after the silence deadline and the call hung up', async () => {
    const call = await liveCall('carrier_a');
    const quietAt = Date.now();
    call.media.goSilent();
    const closed = await call.media.waitForClose(15_000);
    expect(closed.code).toBe(1008);
    expect(Date.now() - quietAt).toBeGreaterThanOrEqual(SILENCE_MS - 100);
    expect(await endReasonOf(call)).toBe(MediaStreamEndReasons.silent);
  });

  it('a carrier that stops reading (pings unanswered) is dropped and the call hung up', async () => {
    const call = await liveCall('carrier_b');
    // Still streaming the caller's audio, but nothing it is sent is read any more.
    call.media.stopReading();
    const id = call.placed.providerCallId;
    await world.fake.waitForHangup(id, 15_000);
    call.media.resumeReading();
    await call.media.waitForClose(15_000);
    await world.complete(call, call.media.mediaMs / 1000);
    expect((await world.finished(call.callId)).end_call_reason).toBe(MediaStreamEndReasons.unresponsive);
  });

  it('a carrier that keeps streaming and answering pings stays up past every deadline', async () => {
    const call = await liveCall('carrier_b');
    // Twice the silence deadline (three ping rounds) of wall time, in media time: the line silent but streaming.
    await call.media.pause(2 * SILENCE_MS * TIME_SCALE);
    expect(call.media.closed).toBeNull();
    expect(world.fake.hangups.find((h) => h.id === call.placed.providerCallId)).toBeUndefined();
    call.media.hangUp();
    await world.complete(call, call.media.mediaMs / 1000, 'callee');
  });
});

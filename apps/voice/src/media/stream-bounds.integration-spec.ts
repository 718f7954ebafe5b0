// What one media stream may cost a voice replica: a carrier connection that floods, goes quiet, stops reading or
// speaks a newer protocol is bounded (or tolerated) without touching anyone else's call. The carrier is a raw stream
// of carrier_b's or carrier_a's protocol; the calls service is the typed fake peer, which records the hang-up the
// voice service asks for with its reason (what the calls service then does with it is its own spec's).
import { MediaStreamCarrier, MULAW_FRAME_BYTES, mulawEncode, sineWave } from '@vap/media';
import { MediaStreamEndReasons } from '@vap/messages';
import { spokenAudio } from '@vap/carrier-sim';
import { voiceScript } from '@vap/llm/testing';
import { waitFor } from '@vap/testing';
import { CarrierCall, CarrierCalls } from '../testing/carrier-calls';
import { RawCarrierStream } from '../testing/raw-carrier-stream';
import { useVoiceWithScriptedModel, voiceMetricSum } from '../testing/voice-integration';

const INTRO = 'Hello, this is Maya from Acme.';
const TIME_SCALE = 8;
/** Wall ms; small so that the specs wait seconds, not the production defaults. */
const SILENCE_MS = 1500;
const PING_INTERVAL_MS = 1000;
/** 500 wall ms of burst is 4 s of media at this MEDIA_TIME_SCALE. */
const BURST_MS = 500;
const ENV = {
  MEDIA_TIME_SCALE: String(TIME_SCALE),
  DRAIN_DEADLINE_MS: '1000',
  PROVIDER_ALLOW_PRIVATE_NETWORKS: 'true',
  MEDIA_INBOUND_SILENCE_MS: String(SILENCE_MS),
  MEDIA_PING_INTERVAL_MS: String(PING_INTERVAL_MS),
  MEDIA_AUDIO_BURST_MS: String(BURST_MS),
};
const CARRIERS: MediaStreamCarrier[] = ['carrier_b', 'carrier_a'];

describe('media stream bounds', () => {
  let calls: CarrierCalls;
  const { voice } = useVoiceWithScriptedModel(voiceScript, ENV);

  beforeAll(() => {
    calls = new CarrierCalls(voice);
  });

  /** A call whose intro has played on `carrier`'s stream, the agent quiet again. */
  async function liveCall(
    carrier: MediaStreamCarrier,
  ): Promise<{ call: CarrierCall; stream: RawCarrierStream }> {
    const call = calls.call({ introMessage: INTRO, endCallEnabled: false });
    const stream = await new RawCarrierStream({
      url: call.streamUrl({ carrier }),
      carrier,
      callId: call.callId,
      timeScale: TIME_SCALE,
    }).open();
    await calls.played(call, INTRO);
    return { call, stream };
  }

  const voiceCounter = (name: string, label?: string) => voiceMetricSum(voice, name, label);

  /** The reason the voice service hung the call up with. */
  const hangUpReason = async (call: CarrierCall) =>
    (await waitFor(() => calls.hangups(call.callId)[0], { description: 'the hang-up asked for' })).reason;

  /** The caller speaks and is answered: the stream is still up and its conversation goes on. */
  async function stillAnswered(call: CarrierCall, stream: RawCarrierStream): Promise<void> {
    stream.play(spokenAudio('What are your opening hours?'));
    await calls.played(call, 'You said What are your opening hours.');
    expect(stream.isOpen).toBe(true);
  }

  async function hangUp(call: CarrierCall, stream: RawCarrierStream): Promise<void> {
    stream.hangUp();
    await stream.closed;
    await waitFor(() => calls.ended(call.callId)[0], { description: 'the stream reported ended' });
  }

  it.each(CARRIERS)(
    '%s: a message far over what a carrier sends closes the stream (1009) and ends the call',
    async (carrier) => {
      const { call, stream } = await liveCall(carrier);
      // One 200 KB "frame", as seen in the field: 25 s of audio in a single media message.
      stream.flood(Buffer.alloc(200_000, 0xff), 200_000);
      expect((await stream.closed).code).toBe(1009);
      expect(await hangUpReason(call)).toBe(MediaStreamEndReasons.protocolError);
      await waitFor(() => calls.ended(call.callId)[0], { description: 'the stream reported ended' });
      expect(calls.ended(call.callId)[0]).toMatchObject({
        endCallReason: MediaStreamEndReasons.protocolError,
      });
    },
  );

  it('audio sent faster than real time is dropped beyond the burst allowance and counted; the call goes on', async () => {
    const droppedBefore = await voiceCounter('voice_inbound_audio_dropped_seconds_total');
    const { call, stream } = await liveCall('carrier_b');
    // 20 s of loud tone (speech to the detector) in carrier-sized frames, all at once: over the audio's budget,
    // not over what the stream may send in messages.
    const floodSeconds = 20;
    stream.flood(mulawEncode(sineWave(300, floodSeconds * 8000)), MULAW_FRAME_BYTES);
    // Only the burst (4 s of media) and what the clock allowed while the flood arrived were taken.
    const dropped = await waitFor(
      async () => {
        const now = (await voiceCounter('voice_inbound_audio_dropped_seconds_total')) - droppedBefore;
        return now > floodSeconds - 10 ? now : undefined;
      },
      { description: 'the flood beyond the burst dropped' },
    );
    expect(dropped).toBeLessThanOrEqual(floodSeconds);
    // The stream was not cut for it: the caller is still heard and answered. The flood put the stream the whole
    // burst ahead of the clock, where any frame early by a hair is dropped too; the carrier's side then loses a
    // little more than the burst (a network drop, shorter than the silence deadline) and streams on.
    await stream.lose(BURST_MS + 200);
    await stillAnswered(call, stream);
    expect(calls.hangups(call.callId)).toEqual([]);
    await hangUp(call, stream);
  });

  it.each(CARRIERS)(
    '%s: events of unknown types are ignored and counted; the conversation carries on',
    async (carrier) => {
      const ignoredBefore = await voiceCounter('voice_media_messages_ignored_total', `protocol="${carrier}"`);
      const { call, stream } = await liveCall(carrier);
      const id = carrier === 'carrier_b' ? { streamSid: 'MZunknown' } : { streamId: 'unknown' };
      stream.sendFrame({ event: 'transcription', ...id, transcription: { text: 'hello' } });
      stream.sendFrame({ event: 'someFutureEvent', sequenceNumber: '99' });
      await stillAnswered(call, stream);
      expect(await voiceCounter('voice_media_messages_ignored_total', `protocol="${carrier}"`)).toBe(
        ignoredBefore + 2,
      );
      await hangUp(call, stream);
      expect(calls.hangups(call.callId)).toEqual([]);
      expect(calls.ended(call.callId)[0]).toMatchObject({ endCallReason: null });
    },
  );

  it('a carrier that goes quiet has its stream closed after the silence deadline and the call hung up', async () => {
    const { call, stream } = await liveCall('carrier_a');
    const quietAt = Date.now();
    stream.goSilent();
    expect((await stream.closed).code).toBe(1008);
    expect(Date.now() - quietAt).toBeGreaterThanOrEqual(SILENCE_MS - 100);
    expect(await hangUpReason(call)).toBe(MediaStreamEndReasons.silent);
  });

  it('a carrier that stops reading (pings unanswered) is dropped and the call hung up', async () => {
    const { call, stream } = await liveCall('carrier_b');
    // Still streaming the caller's audio, but nothing it is sent is read any more.
    stream.stopReading();
    expect(await hangUpReason(call)).toBe(MediaStreamEndReasons.unresponsive);
    stream.resumeReading();
    await stream.closed;
  });

  it('a carrier that keeps streaming and answering pings stays up past every deadline', async () => {
    const { call, stream } = await liveCall('carrier_b');
    // Twice the silence deadline (three ping rounds) of wall time: the line silent but streaming.
    await new Promise((resolve) => setTimeout(resolve, 2 * SILENCE_MS));
    expect(stream.isOpen).toBe(true);
    expect(calls.hangups(call.callId)).toEqual([]);
    await hangUp(call, stream);
  });
});

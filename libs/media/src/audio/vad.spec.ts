import { mixPcm16 } from './pcm';
import { sineWave, whiteNoise } from './signals';
import { ENDPOINT_SILENCE_MS, MIN_SPEECH_MS, VadEvent, VadOptions, VoiceActivityDetector } from './vad';

const RATE = 8000;
const FRAME = 160;

/** Speech stand-in: a 440 Hz tone with an RMS level of `dbfs` for `ms`. */
function tone(ms: number, dbfs = -20): Int16Array {
  return sineWave(440, (ms * RATE) / 1000, RATE, 32768 * Math.pow(10, dbfs / 20) * Math.SQRT2);
}

function silence(ms: number): Int16Array {
  return new Int16Array((ms * RATE) / 1000);
}

function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function run(audio: Int16Array, options: VadOptions = {}): VadEvent[] {
  const vad = new VoiceActivityDetector(options);
  const events: VadEvent[] = [];
  for (let offset = 0; offset + FRAME <= audio.length; offset += FRAME) {
    const event = vad.process(audio.subarray(offset, offset + FRAME));
    if (event) events.push(event);
  }
  return events;
}

describe('VoiceActivityDetector', () => {
  it('documents its endpointing threshold', () => {
    expect(ENDPOINT_SILENCE_MS).toBe(700);
    expect(MIN_SPEECH_MS).toBe(60);
  });

  it('reports where speech starts and ends, after minSpeechMs and the endpointing silence', () => {
    expect(run(concat(silence(500), tone(1000), silence(1000)))).toEqual([
      { type: 'speech_start', atMs: 500, detectedAtMs: 560 },
      { type: 'speech_end', atMs: 1500, detectedAtMs: 1500 + ENDPOINT_SILENCE_MS },
    ]);
  });

  it('ignores blips shorter than minSpeechMs', () => {
    expect(run(concat(silence(200), tone(40), silence(200), tone(40), silence(1000)))).toEqual([]);
  });

  it('keeps the turn through pauses shorter than the endpointing silence', () => {
    const events = run(concat(tone(500), silence(600), tone(500), silence(800)));
    expect(events.map((e) => [e.type, e.atMs])).toEqual([
      ['speech_start', 0],
      ['speech_end', 1600],
    ]);
    const split = run(concat(tone(500), silence(800), tone(500), silence(800)));
    expect(split.map((e) => [e.type, e.atMs])).toEqual([
      ['speech_start', 0],
      ['speech_end', 500],
      ['speech_start', 1300],
      ['speech_end', 1800],
    ]);
  });

  it('takes its silence threshold from the options', () => {
    const events = run(concat(tone(200), silence(400)), { silenceMs: 300, minSpeechMs: 100 });
    expect(events).toEqual([
      { type: 'speech_start', atMs: 0, detectedAtMs: 100 },
      { type: 'speech_end', atMs: 200, detectedAtMs: 500 },
    ]);
  });

  it('stays quiet on background noise below the threshold and finds speech in it', () => {
    const noise = whiteNoise(3 * RATE, -55, 3);
    expect(run(noise)).toEqual([]);
    const speech = mixPcm16(noise, concat(silence(1000), tone(1000), silence(1000)));
    expect(run(speech).map((e) => [e.type, e.atMs])).toEqual([
      ['speech_start', 1000],
      ['speech_end', 2000],
    ]);
  });

  it('holds speech through a dip within the hysteresis, not below it', () => {
    // -38 dBFS starts speech (threshold -40); -43 keeps it with 6 dB hysteresis, ends it with none.
    const audio = concat(tone(300, -38), tone(1000, -43), silence(800));
    expect(run(audio).map((e) => [e.type, e.atMs])).toEqual([
      ['speech_start', 0],
      ['speech_end', 1300],
    ]);
    expect(run(audio, { hysteresisDb: 0 }).map((e) => [e.type, e.atMs])).toEqual([
      ['speech_start', 0],
      ['speech_end', 300],
    ]);
  });

  it('with an adaptive noise floor, stops treating steady loud noise as speech and still hears speech over it', () => {
    const noise = whiteNoise(14 * RATE, -30, 5);
    const speech = concat(silence(12000), tone(1000, -6), silence(1000));
    const events = run(mixPcm16(noise, speech), { noiseMarginDb: 10 });
    expect(events.map((e) => e.type)).toEqual(['speech_start', 'speech_end', 'speech_start', 'speech_end']);
    expect(events[1].detectedAtMs).toBeLessThan(10000);
    expect(events[2].atMs).toBe(12000);
    // Without adaptation the noise is one endless utterance.
    expect(run(mixPcm16(noise, speech)).map((e) => e.type)).toEqual(['speech_start']);
  });

  it('keeps time on the audio clock from a given start, and takes measured levels', () => {
    const vad = new VoiceActivityDetector({}, 10_000);
    expect(vad.processLevel(-20, 30)).toBeUndefined();
    expect(vad.processLevel(-20, 30)).toEqual({ type: 'speech_start', atMs: 10_000, detectedAtMs: 10_060 });
    expect(vad.speaking).toBe(true);
    expect(vad.processLevel(-90, 700)).toEqual({ type: 'speech_end', atMs: 10_060, detectedAtMs: 10_760 });
    expect(vad.nowMs).toBe(10_760);
  });
});

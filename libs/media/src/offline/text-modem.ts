// In-band text modem for the offline speech engines: offline TTS mixes a quiet binary-FSK signal carrying its
// text under the (low-passed) speech, and offline STT decodes it back, so the round trip is exact and
// deterministic through mu-law, resampling and 20 ms framing. It is not speech recognition: audio without this
// signal (a human caller, a cloud TTS) decodes to nothing.
//
// Line code: continuous-phase BFSK, 0 = 2800 Hz, 1 = 3200 Hz, 200 bit/s. Both tones sit above the speech
// (low-passed at 2.4 kHz) and inside the telephone band (< 3.4 kHz); 400 Hz apart = 2 x the bit rate, so each
// is orthogonal to the other over one bit and a Goertzel per tone per bit separates them. 200 bit/s rather than
// 400 buys ~3 dB of margin against speech and quantisation noise; it still carries 25 bytes/s, above the ~15
// chars/s of spoken text, so a frame rarely outlasts its speech (when it does, TTS pads the speech with silence).
//
// Frame, MSB first: preamble 0xAAAAAAAA | sync 0x2DD4 | byte length (16 bits) | UTF-8 text | CRC-16/CCITT-FALSE
// over length and text | 8 bits of 1 (postamble, so the last CRC bit is not cut by filters at the very end).
// Overhead 88 bits (0.44 s); capacity 25 bytes/s.
import { clampSample } from '../audio';
import { CRC16_INIT, crc16Update } from './crc16';

export const TEXT_SIGNAL_BIT_RATE = 200;
export const TEXT_SIGNAL_SPACE_HZ = 2800;
export const TEXT_SIGNAL_MARK_HZ = 3200;
/** Default data level: about 10 dB under typical TTS speech (-20 dBFS RMS). */
export const TEXT_SIGNAL_LEVEL_DBFS = -30;
/** Longest text a frame carries, in UTF-8 bytes (~160 s of signal). */
export const TEXT_SIGNAL_MAX_BYTES = 4096;

const PREAMBLE = 0xaaaaaaaa;
const PREAMBLE_BITS = 32;
const SYNC = 0x2dd4;
/** What the decoder hunts for: the preamble's last 16 bits then the sync word. */
const SYNC_PATTERN = ((0xaaaa << 16) | SYNC) >>> 0;
const POSTAMBLE_BITS = 8;
const OVERHEAD_BITS = PREAMBLE_BITS + 16 + 16 + 16 + POSTAMBLE_BITS;
/** Fade in/out, so the signal starts and stops without a click. */
const RAMP_MS = 2;
/**
 * Bit-timing phases the decoder tries at once; the best is at most 1/16 bit off. Four (1/8 bit) sufficed for audio
 * that stays digital, but not for a browser's microphone: after its gain control and resampling, a frame timed
 * 1/8 bit off reads a few bits of the neighbours wrong, and a looped line, drifting 1/10 bit a loop against the
 * phases, went unheard for a minute and more.
 */
const PHASES = 8;

export interface TextSignalOptions {
  sampleRate: number;
  /** RMS level of the data signal; TEXT_SIGNAL_LEVEL_DBFS by default. */
  levelDbfs?: number;
}

/** How long the data signal for `text` lasts, so TTS can pad shorter speech with silence. */
export function textSignalDurationMs(text: string): number {
  return ((OVERHEAD_BITS + Buffer.byteLength(text, 'utf8') * 8) * 1000) / TEXT_SIGNAL_BIT_RATE;
}

function frameBits(text: string): Uint8Array {
  const payload = Buffer.from(text, 'utf8');
  if (payload.length > TEXT_SIGNAL_MAX_BYTES) {
    throw new RangeError(`encodeTextSignal: text is ${payload.length} bytes, over ${TEXT_SIGNAL_MAX_BYTES}`);
  }
  const bits = new Uint8Array(OVERHEAD_BITS + payload.length * 8);
  let at = 0;
  const put = (value: number, count: number) => {
    for (let k = count - 1; k >= 0; k--) bits[at++] = (value >>> k) & 1;
  };
  put(PREAMBLE, PREAMBLE_BITS);
  put(SYNC, 16);
  put(payload.length, 16);
  let crc = crc16Update(crc16Update(CRC16_INIT, payload.length >> 8), payload.length & 0xff);
  for (const byte of payload) {
    put(byte, 8);
    crc = crc16Update(crc, byte);
  }
  put(crc, 16);
  put(0xff, POSTAMBLE_BITS);
  return bits;
}

/** Sample index where bit `k` starts: bits are sampleRate / bitRate samples long, rounded per boundary. */
function bitBoundary(k: number, samplesPerBit: number, offset = 0): number {
  return Math.round(offset + k * samplesPerBit);
}

/** PCM16 of the data signal carrying `text` (see the frame layout above). */
export function encodeTextSignal(text: string, options: TextSignalOptions): Int16Array {
  const { sampleRate, levelDbfs = TEXT_SIGNAL_LEVEL_DBFS } = options;
  if (sampleRate < 2 * (TEXT_SIGNAL_MARK_HZ + 400)) {
    throw new RangeError(`encodeTextSignal: ${sampleRate} Hz cannot carry ${TEXT_SIGNAL_MARK_HZ} Hz tones`);
  }
  const bits = frameBits(text);
  const samplesPerBit = sampleRate / TEXT_SIGNAL_BIT_RATE;
  const out = new Int16Array(bitBoundary(bits.length, samplesPerBit));
  // A sine's RMS is its peak / sqrt(2).
  const peak = 32768 * Math.pow(10, levelDbfs / 20) * Math.SQRT2;
  const ramp = Math.max(1, Math.round((sampleRate * RAMP_MS) / 1000));
  let phase = 0;
  for (let k = 0; k < bits.length; k++) {
    const step = (2 * Math.PI * (bits[k] ? TEXT_SIGNAL_MARK_HZ : TEXT_SIGNAL_SPACE_HZ)) / sampleRate;
    const end = bitBoundary(k + 1, samplesPerBit);
    for (let n = bitBoundary(k, samplesPerBit); n < end; n++) {
      const edge = Math.min(n, out.length - 1 - n);
      const fade = edge < ramp ? 0.5 - 0.5 * Math.cos((Math.PI * edge) / ramp) : 1;
      out[n] = clampSample(peak * fade * Math.sin(phase));
      phase += step;
    }
    // Continuous phase: the next tone starts where this one ended, so there is no click between bits.
    phase %= 2 * Math.PI;
  }
  return out;
}

/** |sample| under this is silence to the decoder (the tones alone swing about ±1000). */
const QUIET_SAMPLE = 100;
/** 10 ms of silence at 8 kHz (two bits' time): no frame is under way any more. */
const QUIET_RUN_SAMPLES = 80;

const enum Stage {
  Hunt,
  Length,
  Payload,
  Crc,
}

/** One bit-timing phase: a Goertzel pair over the current bit, and the frame parser behind it. */
class PhaseState {
  /** Goertzel states (previous two outputs) for the space and mark tones. */
  s1 = 0;
  s2 = 0;
  m1 = 0;
  m2 = 0;
  /** Sample index at which the current bit ends, and that bit's number. */
  end = 0;
  bit = 1;
  stage = Stage.Hunt;
  shift = 0;
  count = 0;
  value = 0;
  length = 0;
  crc = CRC16_INIT;
  readonly payload = new Uint8Array(TEXT_SIGNAL_MAX_BYTES);

  constructor(readonly offset: number) {}

  hunt(): void {
    this.stage = Stage.Hunt;
    this.shift = 0;
  }
}

/**
 * Decodes the text signal from a stream of PCM16 chunks of any size (e.g. 20 ms caller frames). The work per
 * sample is two Goertzel steps for each of eight bit-timing phases, with no allocation beyond decoded texts.
 */
export class TextSignalDecoder {
  private readonly samplesPerBit: number;
  private readonly spaceCoeff: number;
  private readonly markCoeff: number;
  private readonly phases: PhaseState[] = [];
  /** Samples received so far. */
  private position = 0;
  /** Consecutive near-silent samples: a frame's tones never stop, so a silence ends any frame under way. */
  private quietRun = 0;

  constructor(readonly sampleRate: number) {
    if (sampleRate < 2 * (TEXT_SIGNAL_MARK_HZ + 400)) {
      throw new RangeError(
        `TextSignalDecoder: ${sampleRate} Hz cannot carry ${TEXT_SIGNAL_MARK_HZ} Hz tones`,
      );
    }
    this.samplesPerBit = sampleRate / TEXT_SIGNAL_BIT_RATE;
    this.spaceCoeff = 2 * Math.cos((2 * Math.PI * TEXT_SIGNAL_SPACE_HZ) / sampleRate);
    this.markCoeff = 2 * Math.cos((2 * Math.PI * TEXT_SIGNAL_MARK_HZ) / sampleRate);
    for (let p = 0; p < PHASES; p++) this.phases.push(new PhaseState((p * this.samplesPerBit) / PHASES));
    this.reset();
  }

  /** Feeds the next chunk; returns the texts of the frames completed in it (usually none). */
  push(chunk: Int16Array): string[] {
    const texts: string[] = [];
    const { phases, spaceCoeff, markCoeff } = this;
    for (let i = 0; i < chunk.length; i++) {
      const x = chunk[i];
      const position = this.position++;
      // A cut signal (barge-in, clear) followed by silence must not swallow the next frame's sync.
      if (x > -QUIET_SAMPLE && x < QUIET_SAMPLE) {
        if (++this.quietRun === QUIET_RUN_SAMPLES) for (const st of phases) st.hunt();
      } else this.quietRun = 0;
      for (let p = 0; p < PHASES; p++) {
        const st = phases[p];
        const s = x + spaceCoeff * st.s1 - st.s2;
        st.s2 = st.s1;
        st.s1 = s;
        const m = x + markCoeff * st.m1 - st.m2;
        st.m2 = st.m1;
        st.m1 = m;
        if (position + 1 < st.end) continue;
        // Bit ends: compare the two tones' energy over it.
        const space = st.s1 * st.s1 + st.s2 * st.s2 - spaceCoeff * st.s1 * st.s2;
        const mark = st.m1 * st.m1 + st.m2 * st.m2 - markCoeff * st.m1 * st.m2;
        st.s1 = st.s2 = st.m1 = st.m2 = 0;
        st.bit++;
        st.end = bitBoundary(st.bit, this.samplesPerBit, st.offset);
        const text = this.feed(st, mark > space ? 1 : 0);
        if (text === undefined) continue;
        texts.push(text);
        // The other phases are on the same frame; restart them all so it is reported once.
        for (const other of phases) other.hunt();
      }
    }
    return texts;
  }

  /** A frame is under way: its sync word has been heard and its text is still arriving. */
  get receiving(): boolean {
    return this.phases.some((st) => st.stage !== Stage.Hunt);
  }

  /** Forgets any partial frame and the bit timing (e.g. a new call or utterance source). */
  reset(): void {
    this.position = 0;
    for (const st of this.phases) {
      st.s1 = st.s2 = st.m1 = st.m2 = 0;
      st.bit = 1;
      st.end = bitBoundary(1, this.samplesPerBit, st.offset);
      st.hunt();
    }
  }

  /** Advances one phase's frame parser by a bit; returns the text when a frame checks out. */
  private feed(st: PhaseState, bit: number): string | undefined {
    // The sync is watched for in every stage: a frame cut short (barge-in, a failed synthesis) and followed
    // at once by the next one gives way to it instead of swallowing its start (its CRC would fail anyway).
    st.shift = ((st.shift << 1) | bit) >>> 0;
    if (st.shift === SYNC_PATTERN) {
      st.stage = Stage.Length;
      st.count = 0;
      st.value = 0;
      return undefined;
    }
    switch (st.stage) {
      case Stage.Hunt:
        return undefined;
      case Stage.Length:
        st.value = (st.value << 1) | bit;
        if (++st.count < 16) return undefined;
        if (st.value > TEXT_SIGNAL_MAX_BYTES) {
          st.hunt();
          return undefined;
        }
        st.length = st.value;
        st.crc = crc16Update(crc16Update(CRC16_INIT, st.length >> 8), st.length & 0xff);
        st.count = 0;
        st.value = 0;
        st.stage = st.length > 0 ? Stage.Payload : Stage.Crc;
        return undefined;
      case Stage.Payload:
        st.value = (st.value << 1) | bit;
        if (++st.count % 8 !== 0) return undefined;
        st.payload[st.count / 8 - 1] = st.value;
        st.crc = crc16Update(st.crc, st.value);
        st.value = 0;
        if (st.count === st.length * 8) {
          st.stage = Stage.Crc;
          st.count = 0;
        }
        return undefined;
      case Stage.Crc: {
        st.value = (st.value << 1) | bit;
        if (++st.count < 16) return undefined;
        const ok = st.value === st.crc;
        st.hunt();
        return ok ? Buffer.from(st.payload.subarray(0, st.length)).toString('utf8') : undefined;
      }
    }
  }
}

/** Decodes the first valid frame in a whole clip; null when there is none (no sync, or a bad CRC). */
export function decodeTextSignal(pcm: Int16Array, sampleRate: number): { text: string } | null {
  const [text] = new TextSignalDecoder(sampleRate).push(pcm);
  return text === undefined ? null : { text };
}

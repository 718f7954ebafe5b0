/** A stretch of the recording: a tone (speech stand-in) or silence, `seconds` long. */
export interface AudioSegment {
  seconds: number;
  /** Tone frequency in Hz; 0 = silence. */
  hz: number;
}

export const RECORDING_SAMPLE_RATE = 8000;

/**
 * A PCM WAV (mono, 16-bit) whose length is exactly the sum of the segments: tones where someone speaks,
 * silence elsewhere. Telephone-rate 8 kHz keeps a ten-minute call under 10 MB.
 */
export function buildWav(segments: AudioSegment[], sampleRate = RECORDING_SAMPLE_RATE): Buffer {
  const counts = segments.map((s) => Math.max(0, Math.round(s.seconds * sampleRate)));
  const samples = counts.reduce((a, b) => a + b, 0);
  const dataBytes = samples * 2;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // PCM fmt chunk size
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  let offset = 44;
  segments.forEach((segment, i) => {
    for (let n = 0; n < counts[i]; n++) {
      const value = segment.hz ? Math.round(Math.sin((2 * Math.PI * segment.hz * n) / sampleRate) * 8000) : 0;
      buf.writeInt16LE(value, offset);
      offset += 2;
    }
  });
  return buf;
}

/** Duration in seconds of a WAV built by buildWav. */
export function wavDurationSeconds(wav: Buffer): number {
  return wav.readUInt32LE(40) / wav.readUInt32LE(28);
}

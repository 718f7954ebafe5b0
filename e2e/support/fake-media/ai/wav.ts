// RIFF/WAVE PCM16 reading and writing for the fake speech servers and recording assertions.

export interface Wav {
  sampleRate: number;
  channels: number;
  /** One Int16Array per channel. */
  samples: Int16Array[];
}

/** Reads a PCM16 WAV (any channel count); throws on anything else. */
export function parseWav(buf: Buffer): Wav {
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let at = 12;
  let format: { channels: number; sampleRate: number; bits: number; code: number } | null = null;
  while (at + 8 <= buf.length) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      format = {
        code: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        bits: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format) throw new Error('WAV data before fmt');
      if (format.code !== 1 || format.bits !== 16)
        throw new Error(`WAV is not PCM16 (format ${format.code}, ${format.bits} bits)`);
      const end = Math.min(buf.length, body + size);
      const frames = Math.floor((end - body) / (2 * format.channels));
      const samples = Array.from({ length: format.channels }, () => new Int16Array(frames));
      for (let f = 0; f < frames; f++) {
        for (let c = 0; c < format.channels; c++) {
          samples[c][f] = buf.readInt16LE(body + 2 * (f * format.channels + c));
        }
      }
      return { sampleRate: format.sampleRate, channels: format.channels, samples };
    }
    at = body + size + (size & 1);
  }
  throw new Error('WAV without a data chunk');
}

/** A mono PCM16 WAV. */
export function monoWav(samples: Int16Array, sampleRate: number): Buffer {
  const data = samples.length * 2;
  const out = Buffer.alloc(44 + data);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + data, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(data, 40);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i], 44 + 2 * i);
  return out;
}

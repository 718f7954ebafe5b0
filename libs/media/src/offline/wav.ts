// RIFF/WAVE for PCM16: what flite writes, what OpenAI-compatible transcription endpoints accept, and the
// voice service's two-channel call recordings.
import { pcm16FromBuffer, pcm16ToBuffer } from '../audio';

export interface Pcm16Clip {
  samples: Int16Array;
  sampleRate: number;
}

/** A PCM16 WAV of any channel count, read apart: one Int16Array per channel. */
export interface Pcm16Tracks {
  sampleRate: number;
  channels: number;
  samples: Int16Array[];
}

/** The 44-byte header of a 16-bit PCM WAV whose data (interleaved channels) is `dataBytes` long. */
export function pcm16WavHeader(dataBytes: number, sampleRate: number, channels = 1): Buffer {
  const blockAlign = channels * 2;
  const buf = Buffer.alloc(44);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(channels, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * blockAlign, 28);
  buf.writeUInt16LE(blockAlign, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  return buf;
}

/** A 44-byte-header PCM16 mono WAV of the samples. */
export function encodePcm16Wav(samples: Int16Array, sampleRate: number): Buffer {
  return Buffer.concat([pcm16WavHeader(samples.length * 2, sampleRate), pcm16ToBuffer(samples)]);
}

/**
 * The samples of a PCM16 mono WAV. Throws on anything else, so a corrupt synthesis is an error and not
 * noise on the line.
 */
export function decodePcm16Wav(wav: Uint8Array): Pcm16Clip {
  const { sampleRate, channels, data } = readPcm16Wav(wav, 'decodePcm16Wav');
  if (channels !== 1) throw new Error(`decodePcm16Wav: need PCM16 mono (${channels} channels)`);
  // A copy, so the clip does not keep the file's buffer alive.
  return { samples: pcm16FromBuffer(data).slice(), sampleRate };
}

/** The channels of a PCM16 WAV of any channel count (interleaved frames read apart). */
export function decodePcm16WavTracks(wav: Uint8Array): Pcm16Tracks {
  const { sampleRate, channels, data } = readPcm16Wav(wav, 'decodePcm16WavTracks');
  const interleaved = pcm16FromBuffer(data);
  const frames = Math.floor(interleaved.length / channels);
  const samples = Array.from({ length: channels }, () => new Int16Array(frames));
  for (let f = 0, at = 0; f < frames; f++) {
    for (let c = 0; c < channels; c++) samples[c][f] = interleaved[at++];
  }
  return { sampleRate, channels, samples };
}

/**
 * The format and data chunk of a PCM16 WAV, walking the chunks (writers put LIST or fact chunks before
 * `data`); a data chunk longer than the file is cut at its end.
 */
function readPcm16Wav(
  wav: Uint8Array,
  caller: string,
): { sampleRate: number; channels: number; data: Buffer } {
  const buf = Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error(`${caller}: not a RIFF/WAVE file`);
  }
  let format: { sampleRate: number; channels: number } | null = null;
  let at = 12;
  while (at + 8 <= buf.length) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      if (body + 16 > buf.length) throw new Error(`${caller}: truncated fmt chunk`);
      const code = buf.readUInt16LE(body);
      const channels = buf.readUInt16LE(body + 2);
      const bits = buf.readUInt16LE(body + 14);
      if (code !== 1 || bits !== 16 || channels < 1) {
        throw new Error(`${caller}: need PCM16 (format ${code}, ${channels} ch, ${bits} bit)`);
      }
      format = { sampleRate: buf.readUInt32LE(body + 4), channels };
    } else if (id === 'data') {
      if (!format) throw new Error(`${caller}: data chunk before fmt`);
      return { ...format, data: buf.subarray(body, Math.min(buf.length, body + size)) };
    }
    // Chunks are padded to an even size.
    at = body + size + (size & 1);
  }
  throw new Error(`${caller}: no data chunk`);
}

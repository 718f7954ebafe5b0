// RIFF/WAVE for PCM16 mono: what flite writes and what OpenAI-compatible transcription endpoints accept.
import { pcm16FromBuffer, pcm16ToBuffer } from '../audio';

export interface Pcm16Clip {
  samples: Int16Array;
  sampleRate: number;
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
 * The samples of a PCM16 mono WAV, walking the chunks (writers put LIST or fact chunks before `data`). Throws
 * on anything else, so a corrupt synthesis is an error and not noise on the line.
 */
export function decodePcm16Wav(wav: Uint8Array): Pcm16Clip {
  const buf = Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('decodePcm16Wav: not a RIFF/WAVE file');
  }
  let sampleRate = 0;
  let at = 12;
  while (at + 8 <= buf.length) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      const format = buf.readUInt16LE(body);
      const channels = buf.readUInt16LE(body + 2);
      const bits = buf.readUInt16LE(body + 14);
      if (format !== 1 || channels !== 1 || bits !== 16) {
        throw new Error(`decodePcm16Wav: need PCM16 mono (format ${format}, ${channels} ch, ${bits} bit)`);
      }
      sampleRate = buf.readUInt32LE(body + 4);
    } else if (id === 'data') {
      if (!sampleRate) throw new Error('decodePcm16Wav: data chunk before fmt');
      const end = Math.min(buf.length, body + size);
      // A copy, so the clip does not keep the file's buffer alive.
      return { samples: pcm16FromBuffer(buf.subarray(body, end)).slice(), sampleRate };
    }
    // Chunks are padded to an even size.
    at = body + size + (size & 1);
  }
  throw new Error('decodePcm16Wav: no data chunk');
}

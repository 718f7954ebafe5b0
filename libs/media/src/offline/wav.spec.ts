import { pcm16ToBuffer } from '../audio';
import { decodePcm16Wav, decodePcm16WavTracks, encodePcm16Wav, pcm16WavHeader } from './wav';

// A LIST chunk (odd size, padded) between fmt and data, as some writers put there.
const LIST = Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc\0')]);
const withList = (wav: Buffer) => Buffer.concat([wav.subarray(0, 36), LIST, wav.subarray(36)]);

describe('PCM16 WAV', () => {
  it('round-trips mono samples and skips chunks before data', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768, 1234]);
    const wav = encodePcm16Wav(samples, 16000);
    expect(decodePcm16Wav(wav)).toEqual({ samples, sampleRate: 16000 });
    expect(decodePcm16Wav(withList(wav)).samples).toEqual(samples);
    expect(() => decodePcm16Wav(Buffer.from('not a wav file'))).toThrow('not a RIFF/WAVE');
  });

  it('reads the channels of a multi-channel WAV apart, and refuses one where mono is needed', () => {
    const interleaved = Int16Array.from([1, -1, 2, -2, 3, -3]);
    const wav = Buffer.concat([pcm16WavHeader(interleaved.length * 2, 8000, 2), pcm16ToBuffer(interleaved)]);
    const expected = {
      sampleRate: 8000,
      channels: 2,
      samples: [Int16Array.from([1, 2, 3]), Int16Array.from([-1, -2, -3])],
    };
    expect(decodePcm16WavTracks(wav)).toEqual(expected);
    expect(decodePcm16WavTracks(withList(wav))).toEqual(expected);
    expect(() => decodePcm16Wav(wav)).toThrow('need PCM16 mono (2 channels)');
  });

  it('reads a mono WAV as one track, at an odd byte offset too, and cuts a data chunk at the end of the file', () => {
    const samples = Int16Array.from([5, -6, 7]);
    const wav = encodePcm16Wav(samples, 24000);
    const shifted = new Uint8Array(wav.length + 1).fill(9);
    shifted.set(wav, 1);
    expect(decodePcm16WavTracks(shifted.subarray(1))).toEqual({
      sampleRate: 24000,
      channels: 1,
      samples: [samples],
    });
    expect(decodePcm16WavTracks(wav.subarray(0, wav.length - 2)).samples).toEqual([samples.subarray(0, 2)]);
  });

  it('refuses what is not PCM16', () => {
    const float = encodePcm16Wav(Int16Array.from([1]), 8000);
    float.writeUInt16LE(3, 20);
    expect(() => decodePcm16WavTracks(float)).toThrow('need PCM16 (format 3');
    const noData = encodePcm16Wav(new Int16Array(0), 8000).subarray(0, 36);
    expect(() => decodePcm16WavTracks(noData)).toThrow('no data chunk');
  });
});

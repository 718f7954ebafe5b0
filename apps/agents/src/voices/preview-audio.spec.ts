import { decodePcm16Wav } from '@vap/media';
import { collectPreviewPcm, previewTextHash, previewWav } from './preview-audio';

async function* chunks(...sizes: number[]): AsyncIterable<Int16Array> {
  let value = 0;
  for (const size of sizes) yield Int16Array.from({ length: size }, () => value++ % 1000);
}

describe('voice preview audio', () => {
  it('writes a 16-bit PCM mono RIFF/WAVE at 8 kHz whose data are the samples', () => {
    const pcm = Int16Array.from([0, 1, -1, 32767, -32768]);
    const wav = previewWav(pcm);
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(36 + pcm.length * 2);
    expect(wav.subarray(8, 16).toString('ascii')).toBe('WAVEfmt ');
    expect(wav.readUInt16LE(20)).toBe(1); // PCM
    expect(wav.readUInt16LE(22)).toBe(1); // mono
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt32LE(28)).toBe(16000); // byte rate
    expect(wav.readUInt16LE(32)).toBe(2); // block align
    expect(wav.readUInt16LE(34)).toBe(16); // bits per sample
    expect(wav.subarray(36, 40).toString('ascii')).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(pcm.length * 2);
    expect(wav.length).toBe(44 + pcm.length * 2);
    expect(decodePcm16Wav(wav)).toEqual({ samples: pcm, sampleRate: 8000 });
  });

  it('gathers a stream whole while it is short', async () => {
    const stop = jest.fn();
    const pcm = await collectPreviewPcm(chunks(3, 4, 5), stop, 8000, 30);
    expect(Array.from(pcm)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(stop).not.toHaveBeenCalled();
  });

  it('cuts a stream at the length bound and stops the synthesis', async () => {
    const stop = jest.fn();
    // 1 s at 10 Hz: 10 samples, then the stream is abandoned.
    const pcm = await collectPreviewPcm(chunks(4, 4, 4, 4), stop, 10, 1);
    expect(pcm.length).toBe(10);
    expect(Array.from(pcm)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('hashes the preview text for the cache key', () => {
    expect(previewTextHash('Hello')).toBe(previewTextHash('Hello'));
    expect(previewTextHash('Hello')).not.toBe(previewTextHash('Hello.'));
    expect(previewTextHash('Hello')).toMatch(/^[0-9a-f]{64}$/);
  });
});

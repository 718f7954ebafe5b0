// A WAV file read as it streams in (espeak-ng --stdout writes its header before it knows the length, so the data
// chunk's size is a placeholder): the format from the `fmt ` chunk, then every byte of `data` as it arrives.

/** The header's size at most: a longer one is not a WAV espeak-ng writes. */
const MAX_HEADER_BYTES = 4096;

export interface WavFormat {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
}

/** Parses a streamed PCM WAV: push() returns the PCM bytes of `data` that came with the chunk. */
export class WavStreamReader {
  private header: Buffer = Buffer.alloc(0);
  private inData = false;
  format: WavFormat | undefined;

  push(chunk: Buffer): Buffer {
    if (this.inData) return chunk;
    this.header = Buffer.concat([this.header, chunk]);
    if (this.header.length < 12) return Buffer.alloc(0);
    if (this.header.toString('latin1', 0, 4) !== 'RIFF' || this.header.toString('latin1', 8, 12) !== 'WAVE') {
      throw new Error('the output is not a WAV file');
    }
    let at = 12;
    while (at + 8 <= this.header.length) {
      const id = this.header.toString('latin1', at, at + 4);
      const size = this.header.readUInt32LE(at + 4);
      if (id === 'data') {
        if (!this.format) throw new Error('the WAV data comes before its format');
        this.inData = true;
        const rest = this.header.subarray(at + 8);
        this.header = Buffer.alloc(0);
        return rest;
      }
      if (at + 8 + size > this.header.length) break;
      if (id === 'fmt ') {
        const encoding = this.header.readUInt16LE(at + 8);
        const format = {
          channels: this.header.readUInt16LE(at + 10),
          sampleRate: this.header.readUInt32LE(at + 12),
          bitsPerSample: this.header.readUInt16LE(at + 22),
        };
        if (encoding !== 1 || format.bitsPerSample !== 16 || format.channels !== 1) {
          throw new Error(
            `the WAV is not 16-bit mono PCM (encoding ${encoding}, ${format.bitsPerSample} bits, ` +
              `${format.channels} channels)`,
          );
        }
        this.format = format;
      }
      at += 8 + size + (size % 2);
    }
    if (this.header.length > MAX_HEADER_BYTES) throw new Error('the WAV header is too long');
    return Buffer.alloc(0);
  }
}

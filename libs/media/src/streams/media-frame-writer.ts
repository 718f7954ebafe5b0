// The carriers' outbound audio messages written straight into the bytes that go on the wire. Built the general
// way (a message object, the payload's base64 string, JSON.stringify's string, which the socket then encodes to
// bytes) each 20 ms frame costs three strings and three objects; here it is one buffer, from a template made
// once per stream and the payload base64-encoded into it.

const ALPHABET = Uint8Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', (c) =>
  c.charCodeAt(0),
);
const PAD = 0x3d;

/** Characters of `bytes` bytes in base64 (padded). */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** Writes `src` base64-encoded (padded, as Buffer's toString('base64')) into `out` at `at`; returns the end. */
export function writeBase64(src: Uint8Array, out: Uint8Array, at: number): number {
  let o = at;
  let i = 0;
  for (; i + 3 <= src.length; i += 3) {
    const n = (src[i] << 16) | (src[i + 1] << 8) | src[i + 2];
    out[o++] = ALPHABET[n >> 18];
    out[o++] = ALPHABET[(n >> 12) & 63];
    out[o++] = ALPHABET[(n >> 6) & 63];
    out[o++] = ALPHABET[n & 63];
  }
  const rest = src.length - i;
  if (rest > 0) {
    const n = (src[i] << 16) | (rest === 2 ? src[i + 1] << 8 : 0);
    out[o++] = ALPHABET[n >> 18];
    out[o++] = ALPHABET[(n >> 12) & 63];
    out[o++] = rest === 2 ? ALPHABET[(n >> 6) & 63] : PAD;
    out[o++] = PAD;
  }
  return o;
}

/** An audio message's text around its base64 payload, for one stream. */
export interface AudioMessageTemplate {
  prefix: string;
  suffix: string;
}

/** Writes one stream's audio messages; the template is made again only when the stream id changes. */
export class AudioMessageWriter {
  private streamId: string | null = null;
  private prefix = Buffer.alloc(0);
  private suffix = Buffer.alloc(0);

  constructor(private readonly templateOf: (streamId: string) => AudioMessageTemplate) {}

  /** The message's UTF-8 bytes: the same text the general encoder gives, in a new buffer. */
  write(payload: Uint8Array, streamId: string): Buffer {
    if (streamId !== this.streamId) {
      const template = this.templateOf(streamId);
      this.prefix = Buffer.from(template.prefix);
      this.suffix = Buffer.from(template.suffix);
      this.streamId = streamId;
    }
    const { prefix, suffix } = this;
    const out = Buffer.allocUnsafe(prefix.length + base64Length(payload.length) + suffix.length);
    prefix.copy(out, 0);
    const end = writeBase64(payload, out, prefix.length);
    suffix.copy(out, end);
    return out;
  }
}

import { mediaStreamCodec } from './media-stream-adapters';
import type { MediaStreamCodec } from './media-stream-codec';
import { carrierAStreamAdapter, carrierBStreamAdapter } from './media-stream-adapters';
import { scanMediaFrame } from './media-frame-scanner';

const payloads = [0, 1, 2, 3, 4, 5, 160].map((n) =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff)),
);

function carrierBMedia(
  payload: Buffer,
  extra: Record<string, unknown> = {},
  media: Record<string, unknown> = {},
) {
  return JSON.stringify({
    event: 'media',
    sequenceNumber: '4',
    media: { track: 'inbound', chunk: '2', timestamp: '5', payload: payload.toString('base64'), ...media },
    streamSid: 'MZ18ad3ab5a668481ce02b83e7395059f0',
    ...extra,
  });
}

function carrierAMedia(payload: Buffer, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    event: 'media',
    streamId: 'b77e037d-4119-44b5-902d-25826b654539',
    sequenceNumber: 7,
    media: { track: 'inbound', timestamp: 1_700_000_000_123, chunk: 3, payload: payload.toString('base64') },
    ...extra,
  });
}

/** Messages the general reader reads, rejects or leaves: the scanner must agree with it on every one. */
const carrierBMessages = [
  ...payloads.map((p) => carrierBMedia(p)),
  carrierBMedia(payloads[6], {}, { track: 'outbound' }),
  carrierBMedia(payloads[6], {}, { timestamp: 5, chunk: 2 }),
  carrierBMedia(payloads[6], {}, { timestamp: -0 }),
  carrierBMedia(payloads[6], {}, { timestamp: '-0' }),
  carrierBMedia(payloads[6], {}, { timestamp: '007' }),
  carrierBMedia(payloads[6], {}, { timestamp: 1.5 }),
  carrierBMedia(payloads[6], {}, { timestamp: '1.5' }),
  carrierBMedia(payloads[6], {}, { timestamp: 1e21 }),
  carrierBMedia(payloads[6], {}, { timestamp: '1234567890123456789' }),
  carrierBMedia(payloads[6], {}, { timestamp: '' }),
  carrierBMedia(payloads[6], {}, { timestamp: '+5' }),
  carrierBMedia(payloads[6], {}, { timestamp: true }),
  carrierBMedia(payloads[6], {}, { timestamp: null }),
  carrierBMedia(payloads[6], {}, { timestamp: undefined }),
  carrierBMedia(payloads[6], {}, { chunk: [1] }),
  carrierBMedia(payloads[6], {}, { track: '' }),
  carrierBMedia(payloads[6], {}, { track: 'inbound\u00e9' }),
  carrierBMedia(payloads[6], {}, { track: 'in"bound' }),
  carrierBMedia(payloads[6], {}, { payload: 'AAA' }),
  carrierBMedia(payloads[6], {}, { payload: 'AA=A' }),
  carrierBMedia(payloads[6], {}, { payload: 'A===' }),
  carrierBMedia(payloads[6], {}, { payload: '====' }),
  carrierBMedia(payloads[6], {}, { payload: 'AB==' }),
  carrierBMedia(payloads[6], {}, { payload: 'ABC=' }),
  carrierBMedia(payloads[6], {}, { payload: 'AB-_' }),
  carrierBMedia(payloads[6], {}, { payload: 'AB\nC' }),
  carrierBMedia(payloads[6], {}, { payload: 12 }),
  carrierBMedia(payloads[6], {}, { extra: { deep: { deeper: 1 } } }),
  carrierBMedia(payloads[6], { streamSid: '' }),
  carrierBMedia(payloads[6], { streamSid: 'MZ"1\u2028\u00e9' }),
  carrierBMedia(payloads[6], { streamSid: 5 }),
  carrierBMedia(payloads[6], { sequenceNumber: 4 }),
  carrierBMedia(payloads[6], { sequenceNumber: 'x' }),
  carrierBMedia(payloads[6], {
    note: 'x',
    flag: true,
    none: null,
    off: false,
    list: [1, 2],
    nested: { a: { b: 1 } },
  }),
  carrierBMedia(payloads[6], { media: 'none' }),
  carrierBMedia(payloads[6], { media: null }),
  carrierBMedia(payloads[6], { event: 'mark', mark: { name: 'agent-1' } }),
  JSON.stringify({ event: 'stop', streamSid: 'MZ1', stop: { accountSid: 'AC1', callSid: 'CA1' } }),
  JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }),
  JSON.stringify({ event: 'dtmf', streamSid: 'MZ1', dtmf: { track: 'inbound_track', digit: '5' } }),
  ` \n\t${carrierBMedia(payloads[3])}\r\n `,
  `\ufeff${carrierBMedia(payloads[3])}`,
  `${carrierBMedia(payloads[3])}x`,
  `${carrierBMedia(payloads[3])}}`,
  carrierBMedia(payloads[3]).replace('"event"', '"ev\\u0065nt"'),
  carrierBMedia(payloads[3]).replace('"inbound"', '"inb\\u006fund"'),
  carrierBMedia(payloads[3]).replace('"4"', '4.0'),
  carrierBMedia(payloads[3]).replace('"4"', '04'),
  carrierBMedia(payloads[3]).replace('"4"', '-'),
  carrierBMedia(payloads[3]).replace('"4"', '4e0'),
  carrierBMedia(payloads[3]).replace('"4"', 'tru'),
  carrierBMedia(payloads[3]).replace('"streamSid"', '"streamSid" : ').replace('"MZ', ' "MZ'),
  carrierBMedia(payloads[3]).replace(/,/g, ' , '),
  carrierBMedia(payloads[3]).replace(/}$/, ',}'),
  // A repeated key counts as its last value, whole.
  carrierBMedia(payloads[3]).replace(/}$/, `,"event":"mark"}`),
  carrierBMedia(payloads[3]).replace(/}$/, `,"media":{"track":"inbound"}}`),
  carrierBMedia(payloads[3]).replace(
    /}$/,
    `,"media":{"track":"inbound","chunk":1,"timestamp":9,"payload":""}}`,
  ),
  carrierBMedia(payloads[3]).replace(/}$/, `,"media":7}`),
  '{}',
  '[]',
  'null',
  '',
  '{"event":"media"',
];

const carrierAMessages = [
  ...payloads.map((p) => carrierAMedia(p)),
  carrierAMedia(payloads[6], { streamSid: 'x' }),
  carrierAMedia(payloads[6], { streamId: '' }),
  carrierAMedia(payloads[6], { extra_headers: 'a=b' }),
  JSON.stringify({ event: 'playedStream', streamId: 's1', name: 'agent-1' }),
];

/** A decoded result with its audio as plain bytes, so results compare by content. */
function comparable(result: ReturnType<MediaStreamCodec['decode']>) {
  if (!result.ok || !result.message || result.message.type !== 'audio') return result;
  return { ...result, message: { ...result.message, payload: [...result.message.payload] } };
}

describe('scanMediaFrame', () => {
  it.each([
    ['carrier_b', carrierBMessages],
    ['carrier_a', carrierAMessages],
  ] as const)('reads every %s message as the general reader does', (protocol, messages) => {
    const codec = mediaStreamCodec(protocol);
    for (const text of messages) {
      expect([text, comparable(codec.decodeText!(Buffer.from(text)))]).toEqual([
        text,
        comparable(codec.decode(text)),
      ]);
    }
  });

  it('reads the common media frames itself, and leaves the unusual ones to the general reader', () => {
    const b = carrierBStreamAdapter.mediaFrames;
    expect(scanMediaFrame(Buffer.from(carrierBMedia(payloads[6])), b)).toEqual({
      type: 'audio',
      payload: payloads[6],
      timestamp: 5,
    });
    expect(scanMediaFrame(Buffer.from(carrierBMedia(payloads[6], {}, { track: 'outbound' })), b)).toBeNull();
    expect(
      scanMediaFrame(Buffer.from(carrierAMedia(payloads[5])), carrierAStreamAdapter.mediaFrames),
    ).toEqual({
      type: 'audio',
      payload: payloads[5],
      timestamp: 1_700_000_000_123,
    });
    for (const unusual of [
      carrierBMedia(payloads[3], {}, { timestamp: 1.5 }),
      carrierBMedia(payloads[3]).replace('"event"', '"ev\\u0065nt"'),
      carrierBMedia(payloads[3], { list: [1] }),
      JSON.stringify({ event: 'stop', streamSid: 'MZ1', stop: { accountSid: 'AC1', callSid: 'CA1' } }),
    ]) {
      expect(scanMediaFrame(Buffer.from(unusual), b)).toBeUndefined();
    }
  });

  it('agrees with the general reader on thousands of damaged frames', () => {
    const codec = mediaStreamCodec('carrier_b');
    const pieces = [
      '"',
      '\\',
      ',',
      ':',
      '{',
      '}',
      '[',
      ']',
      ' ',
      '0',
      '9',
      '-',
      '.',
      'e',
      '=',
      'A',
      '/',
      't',
      'n',
      '\n',
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const originals = [carrierBMedia(payloads[6]), carrierBMedia(payloads[2], {}, { timestamp: 5 })];
    let scanned = 0;
    for (let round = 0; round < 3000; round++) {
      const chars = [...originals[round % originals.length]];
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const at = random(chars.length);
        const edit = random(3);
        if (edit === 0) chars[at] = pieces[random(pieces.length)];
        else if (edit === 1) chars.splice(at, 1);
        else chars.splice(at, 0, pieces[random(pieces.length)]);
      }
      const text = chars.join('');
      if (scanMediaFrame(Buffer.from(text), carrierBStreamAdapter.mediaFrames) !== undefined) scanned++;
      expect([text, comparable(codec.decodeText!(Buffer.from(text)))]).toEqual([
        text,
        comparable(codec.decode(text)),
      ]);
    }
    // Both ways were taken: damage the scanner reads past (a space, another digit) and damage it leaves.
    expect(scanned).toBeGreaterThan(100);
    expect(scanned).toBeLessThan(2900);
  });
});

describe('encodeAudioText', () => {
  it.each(['carrier_a', 'carrier_b'] as const)('writes the same text as the %s encoder', (protocol) => {
    const codec = mediaStreamCodec(protocol);
    for (const streamId of ['MZ18ad3ab5a668481ce02b83e7395059f0', 'MZ"quoted"\u2028\u00e9\\', 'MZ2']) {
      for (const payload of payloads) {
        const bytes = codec.encodeAudioText!(payload, streamId);
        expect(bytes.toString('utf8')).toBe(codec.encode({ type: 'sendAudio', payload }, streamId));
      }
    }
  });
});

import { carrierBClear, carrierBMark, carrierBMedia, parseCarrierBMessage } from '@vap/media';
import { CarrierBMediaStream, parseCarrierBPlatformFrame, readCarrierBPlatformFrame } from './media-stream';

const CALL = { accountSid: 'AC-account', callSid: 'CA-call', streamSid: 'MZ-stream' };

describe('CarrierBMediaStream', () => {
  it('opens with connected (no sequence number), then start carrying the call and the markup parameters', () => {
    const stream = new CarrierBMediaStream(CALL);
    expect(stream.connected()).toEqual({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    expect(stream.start({ callId: 'call-1' })).toEqual({
      event: 'start',
      sequenceNumber: '1',
      start: {
        accountSid: 'AC-account',
        streamSid: 'MZ-stream',
        callSid: 'CA-call',
        tracks: ['inbound'],
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
        customParameters: { callId: 'call-1' },
      },
      streamSid: 'MZ-stream',
    });
  });

  it('numbers media chunks from 1, stamps each 20 ms later, and shares one sequence with every other frame', () => {
    const stream = new CarrierBMediaStream(CALL);
    stream.start({});
    const first = stream.media(Buffer.from([1, 2, 3]));
    const mark = stream.mark('greeting');
    const second = stream.media(Buffer.from([4]));
    expect(first).toEqual({
      event: 'media',
      sequenceNumber: '2',
      media: {
        track: 'inbound',
        chunk: '1',
        timestamp: '0',
        payload: Buffer.from([1, 2, 3]).toString('base64'),
      },
      streamSid: 'MZ-stream',
    });
    expect(mark).toEqual({
      event: 'mark',
      sequenceNumber: '3',
      streamSid: 'MZ-stream',
      mark: { name: 'greeting' },
    });
    expect(second.sequenceNumber).toBe('4');
    expect(second.media).toMatchObject({ chunk: '2', timestamp: '20' });
    expect(stream.stop()).toEqual({
      event: 'stop',
      sequenceNumber: '5',
      streamSid: 'MZ-stream',
      stop: { accountSid: 'AC-account', callSid: 'CA-call' },
    });
    expect(stream.sequenceNumber).toBe(5);
    expect(stream.chunks).toBe(2);
  });

  it('makes up a fresh stream id when none is given', () => {
    const a = new CarrierBMediaStream({ accountSid: 'AC', callSid: 'CA' });
    const b = new CarrierBMediaStream({ accountSid: 'AC', callSid: 'CA' });
    expect(a.streamSid).toMatch(/^MZ[0-9a-f]{32}$/);
    expect(b.streamSid).not.toBe(a.streamSid);
  });

  it('writes frames the platform reads back as they were meant', () => {
    const stream = new CarrierBMediaStream(CALL);
    const frames = [
      stream.connected(),
      stream.start({ callId: 'call-1' }),
      stream.media(Buffer.alloc(160, 0xff)),
      stream.mark('m1'),
      stream.dtmf('7'),
      stream.stop(),
    ];
    const read = frames.map((frame) => parseCarrierBMessage(JSON.stringify(frame)));
    expect(read.every((r) => r.ok)).toBe(true);
    const messages = read.map((r) => (r.ok ? r.message : null));
    expect(messages[1]).toMatchObject({ event: 'start', sequenceNumber: 1, start: { callSid: 'CA-call' } });
    expect(messages[2]).toMatchObject({
      event: 'media',
      sequenceNumber: 2,
      media: { chunk: 1, timestamp: 0 },
    });
    expect(messages[3]).toMatchObject({ event: 'mark', mark: { name: 'm1' } });
    expect(frames[4]).toEqual({
      event: 'dtmf',
      sequenceNumber: '4',
      streamSid: 'MZ-stream',
      dtmf: { track: 'inbound_track', digit: '7' },
    });
    expect(messages[4]).toMatchObject({ event: 'dtmf', sequenceNumber: 4, dtmf: { digit: '7' } });
    expect(messages[5]).toMatchObject({
      event: 'stop',
      stop: { accountSid: 'AC-account', callSid: 'CA-call' },
    });
  });
});

describe('reading the platform frames', () => {
  it('reads the media, mark and clear frames the platform writes', () => {
    const audio = Buffer.from([0x7f, 0x00, 0xff]);
    expect(readCarrierBPlatformFrame(carrierBMedia('MZ', audio))).toEqual({
      event: 'media',
      media: { payload: audio.toString('base64') },
    });
    expect(readCarrierBPlatformFrame(carrierBMark('MZ', 'turn-1'))).toEqual({
      event: 'mark',
      mark: { name: 'turn-1' },
    });
    expect(readCarrierBPlatformFrame(carrierBClear('MZ'))).toEqual({ event: 'clear' });
  });

  it('skips what the carrier does not act on', () => {
    expect(readCarrierBPlatformFrame({ event: 'media', media: { payload: 5 } })).toBeNull();
    expect(readCarrierBPlatformFrame({ event: 'media' })).toBeNull();
    expect(readCarrierBPlatformFrame({ event: 'mark', mark: {} })).toBeNull();
    expect(readCarrierBPlatformFrame({ event: 'playAudio', media: { payload: 'AA==' } })).toBeNull();
    expect(readCarrierBPlatformFrame(null)).toBeNull();
    expect(readCarrierBPlatformFrame('clear')).toBeNull();
  });

  it('parses text frames, reading non-JSON as nothing', () => {
    expect(parseCarrierBPlatformFrame(JSON.stringify(carrierBClear('MZ')))).toEqual({ event: 'clear' });
    expect(parseCarrierBPlatformFrame('{not json')).toBeNull();
  });
});

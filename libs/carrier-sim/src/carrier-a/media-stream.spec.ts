import { carrierACheckpoint, carrierAClearAudio, carrierAPlayAudio, parseCarrierAMessage } from '@vap/media';
import { CarrierAMediaStream, readCarrierAPlatformFrame } from './media-stream';

const CALL = { accountId: 'MA-account', callId: 'call-uuid', streamId: 'stream-1' };

describe('CarrierAMediaStream', () => {
  it('opens with start carrying the call and, when the markup set them, its extraHeaders as written', () => {
    expect(new CarrierAMediaStream(CALL).start()).toEqual({
      event: 'start',
      sequenceNumber: 1,
      start: {
        callId: 'call-uuid',
        streamId: 'stream-1',
        accountId: 'MA-account',
        tracks: ['inbound'],
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000 },
      },
    });
    expect(new CarrierAMediaStream(CALL).start('callId=call-1')).toMatchObject({
      extra_headers: 'callId=call-1',
    });
  });

  it('numbers media chunks from 1, stamps each 20 ms later, and shares one sequence with every other frame', () => {
    const stream = new CarrierAMediaStream(CALL);
    stream.start();
    expect(stream.media(Buffer.from([9]))).toEqual({
      event: 'media',
      sequenceNumber: 2,
      streamId: 'stream-1',
      media: { track: 'inbound', timestamp: '0', chunk: 1, payload: Buffer.from([9]).toString('base64') },
    });
    expect(stream.playedStream('cp')).toEqual({
      event: 'playedStream',
      sequenceNumber: 3,
      streamId: 'stream-1',
      name: 'cp',
    });
    expect(stream.media(Buffer.from([9])).media).toMatchObject({ chunk: 2, timestamp: '20' });
    expect(stream.clearedAudio()).toEqual({ event: 'clearedAudio', sequenceNumber: 5, streamId: 'stream-1' });
  });

  it('writes frames the platform reads back as they were meant', () => {
    const stream = new CarrierAMediaStream(CALL);
    const frames = [
      stream.start('a=b'),
      stream.media(Buffer.alloc(160, 0xff)),
      stream.playedStream('cp'),
      stream.clearedAudio(),
    ];
    const read = frames.map((frame) => parseCarrierAMessage(JSON.stringify(frame)));
    expect(read.map((r) => r.ok && r.message.event)).toEqual([
      'start',
      'media',
      'playedStream',
      'clearedAudio',
    ]);
    expect(read[1]).toMatchObject({
      ok: true,
      message: { sequenceNumber: 2, media: { chunk: 1, timestamp: 0 } },
    });
  });

  it('reports a key press stamped with the media time so far, which the platform reads as the key', () => {
    const stream = new CarrierAMediaStream(CALL);
    stream.start();
    stream.media(Buffer.alloc(160, 0xff));
    stream.media(Buffer.alloc(160, 0xff));
    const frame = stream.dtmf('#');
    expect(frame).toEqual({
      event: 'dtmf',
      sequenceNumber: 4,
      streamId: 'stream-1',
      dtmf: { track: 'inbound', digit: '#', timestamp: '40' },
    });
    expect(parseCarrierAMessage(JSON.stringify(frame))).toMatchObject({
      ok: true,
      message: { event: 'dtmf', dtmf: { digit: '#', track: 'inbound' } },
    });
  });
});

describe('reading the carrier_a platform frames', () => {
  it('reads the playAudio, checkpoint and clearAudio frames the platform writes', () => {
    const audio = Buffer.from([1, 2]);
    expect(readCarrierAPlatformFrame(carrierAPlayAudio(audio))).toEqual(carrierAPlayAudio(audio));
    expect(readCarrierAPlatformFrame(carrierACheckpoint('s', 'cp'))).toEqual({
      event: 'checkpoint',
      name: 'cp',
    });
    expect(readCarrierAPlatformFrame(carrierAClearAudio('s'))).toEqual({ event: 'clearAudio' });
  });

  it('tells audio in a format the stream did not negotiate apart, and skips what it does not act on', () => {
    expect(
      readCarrierAPlatformFrame({
        event: 'playAudio',
        media: { contentType: 'audio/x-l16', sampleRate: 16000, payload: 'AA==' },
      }),
    ).toEqual({ event: 'unplayableAudio', contentType: 'audio/x-l16', sampleRate: 16000 });
    expect(readCarrierAPlatformFrame({ event: 'playAudio', media: {} })).toBeNull();
    expect(readCarrierAPlatformFrame({ event: 'checkpoint' })).toBeNull();
    expect(readCarrierAPlatformFrame({ event: 'media', media: { payload: 'AA==' } })).toBeNull();
  });
});

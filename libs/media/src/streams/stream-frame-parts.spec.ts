import { readDtmfDigit, readMediaChunk, readOptionalStreamHeader } from './stream-frame-parts';

describe('readMediaChunk', () => {
  it('reads the media object with numeric counters', () => {
    expect(
      readMediaChunk({ media: { track: 'inbound', chunk: '2', timestamp: 40, payload: '//8A' } }),
    ).toEqual({
      track: 'inbound',
      chunk: 2,
      timestamp: 40,
      payload: '//8A',
    });
  });

  it('names the bad field', () => {
    expect(() => readMediaChunk({})).toThrow('invalid field media');
    expect(() => readMediaChunk({ media: { track: 'inbound', chunk: 1, timestamp: 0 } })).toThrow(
      'invalid field media.payload',
    );
  });
});

describe('readDtmfDigit', () => {
  it('reads the digit with or without a track', () => {
    expect(readDtmfDigit({ dtmf: { track: 'inbound_track', digit: '9' } })).toEqual({
      track: 'inbound_track',
      digit: '9',
    });
    expect(readDtmfDigit({ dtmf: { digit: '#' } })).toEqual({ digit: '#' });
    expect(() => readDtmfDigit({ dtmf: { track: 'inbound' } })).toThrow('invalid field dtmf.digit');
  });
});

describe('readOptionalStreamHeader', () => {
  it('reads the stream id under the carrier-specific name, and the sequence number', () => {
    expect(readOptionalStreamHeader({ streamSid: 'MZ1', sequenceNumber: '4' }, 'streamSid')).toEqual({
      streamSid: 'MZ1',
      sequenceNumber: 4,
    });
    expect(readOptionalStreamHeader({ streamSid: 'MZ1' }, 'streamId')).toEqual({});
  });

  it('refuses present but bad values', () => {
    expect(() => readOptionalStreamHeader({ streamId: 7 }, 'streamId')).toThrow('invalid field streamId');
    expect(() => readOptionalStreamHeader({ sequenceNumber: 'x' }, 'streamId')).toThrow(
      'invalid field sequenceNumber',
    );
  });
});

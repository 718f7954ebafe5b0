import { deriveKey, mediaStreamTokenKey } from './derived-keys';

describe('deriveKey', () => {
  const key = Buffer.alloc(32, 7);

  it('derives the same 32 bytes for the same key and purpose', () => {
    expect(mediaStreamTokenKey(key)).toEqual(mediaStreamTokenKey(Buffer.alloc(32, 7)));
    expect(mediaStreamTokenKey(key)).toHaveLength(32);
  });

  it('derives different keys for different purposes and different secrets', () => {
    expect(deriveKey(key, 'a')).not.toEqual(deriveKey(key, 'b'));
    expect(mediaStreamTokenKey(key)).not.toEqual(mediaStreamTokenKey(Buffer.alloc(32, 8)));
    expect(mediaStreamTokenKey(key)).not.toEqual(key);
  });
});

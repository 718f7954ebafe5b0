import { MEDIA_STREAM_CARRIERS, parseMediaStreamRequest, verifyStreamToken } from '@vap/media';
import { mediaStreamTokenKey } from '@vap/secrets';
import { CallsConfig } from '../config/calls.config';
import { TelephonyConfig } from '../config/telephony.config';
import { MediaStreamLinks } from './media-stream-links';

const SECRETS_KEY = Buffer.alloc(32, 7);

function links(settings: Partial<CallsConfig>): MediaStreamLinks {
  const config = Object.assign(new CallsConfig(), { MEDIA_STREAM_TOKEN_TTL_MS: 60_000 }, settings);
  const telephony = Object.assign(new TelephonyConfig(), { SECRETS_KEY: SECRETS_KEY.toString('hex') });
  return new MediaStreamLinks(config, telephony);
}

describe('MediaStreamLinks', () => {
  const PUBLIC = 'https://media.example.com/voice';

  it('hands every carrier, the sandbox included, MEDIA_PUBLIC_URL', () => {
    const streams = links({ MEDIA_PUBLIC_URL: PUBLIC });
    expect(streams.streamUrl('carrier_a', 'c1')).toMatch(
      /^wss:\/\/media\.example\.com\/voice\/media\/carrier_a\/c1\?token=/,
    );
    expect(streams.streamUrl('carrier_b', 'c1')).toMatch(
      /^wss:\/\/media\.example\.com\/voice\/media\/carrier_b\/c1\?token=/,
    );
    expect(streams.streamUrl('sandbox', 'c1')).toMatch(
      /^wss:\/\/media\.example\.com\/voice\/media\/sandbox\/c1\?token=/,
    );
  });

  it.each(MEDIA_STREAM_CARRIERS)(
    'gives %s a URL the voice service reads back on its MEDIA_PUBLIC_URL, with a token for the call',
    (carrier) => {
      const url = new URL(links({ MEDIA_PUBLIC_URL: PUBLIC }).streamUrl(carrier, 'c9'));
      const read = parseMediaStreamRequest(`${url.pathname}${url.search}`, PUBLIC);
      expect(read).toMatchObject({ ok: true, carrier, callId: 'c9' });
      const token = read.ok ? read.token : '';
      expect(verifyStreamToken(token, mediaStreamTokenKey(SECRETS_KEY), Date.now())).toMatchObject({
        ok: true,
        claims: { callId: 'c9' },
      });
    },
  );
});

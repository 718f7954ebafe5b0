import type { ToolCall } from '@vap/llm';
import { detectDtmf, mulawEncode } from '@vap/media';
import { digitsOf, dtmfRouteOf, sendDtmf, type DtmfSending } from './send-dtmf';

const call = (digits: unknown): ToolCall => ({ id: 'c1', name: 'send_dtmf', arguments: { digits } });

describe('send_dtmf', () => {
  it('takes keys and w, forgiving the spaces and dashes a model writes, and refuses anything else', () => {
    expect(digitsOf(call('2'))).toBe('2');
    expect(digitsOf(call(' 1-800 w 42# '))).toBe('1800w42#');
    expect(digitsOf(call(7))).toBe('7');
    expect(digitsOf(call('1'.repeat(32)))).toBe('1'.repeat(32));
    for (const bad of ['', '1'.repeat(33), 'one', '1x', '12.5', -1, 1.5, null, ['1']])
      expect(digitsOf(call(bad))).toBeNull();
  });

  it('goes through the carrier on carrier_a, in-band everywhere else', () => {
    expect(dtmfRouteOf('carrier_a')).toBe('carrier');
    expect(dtmfRouteOf('carrier_b')).toBe('in_band');
    expect(dtmfRouteOf('browser')).toBe('in_band');
  });

  it('plays in-band keys as their tones, labelled as in the transcript, and tells the model', async () => {
    const played: { label: string; audio: Int16Array }[] = [];
    const sending: DtmfSending = {
      route: 'in_band',
      play: async (label, audio) => (played.push({ label, audio }), true),
      viaCarrier: async () => {
        throw new Error('not on this route');
      },
    };
    await expect(sendDtmf(call('12#'), sending)).resolves.toBe('Pressed 12#.');
    expect(played[0].label).toBe('[keypad] 12#');
    expect(detectDtmf(mulawEncode(played[0].audio))).toBe('12#');
    await expect(sendDtmf(call('1'), { ...sending, play: async () => false })).resolves.toMatch(/cut off/);
    await expect(sendDtmf(call('1x'), sending)).resolves.toMatch(/^Not sent/);
    expect(played).toHaveLength(1);
  });

  it('says so when the carrier did not take the keys', async () => {
    const asked: string[] = [];
    const sending: DtmfSending = {
      route: 'carrier',
      play: async () => true,
      viaCarrier: async (digits) => (asked.push(digits), digits !== '9'),
    };
    await expect(sendDtmf(call('2'), sending)).resolves.toBe('Pressed 2.');
    await expect(sendDtmf(call('9'), sending)).resolves.toMatch(/could not be sent/);
    expect(asked).toEqual(['2', '9']);
  });
});

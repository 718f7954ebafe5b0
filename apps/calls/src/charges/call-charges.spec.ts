import { creditsPaise } from '@vap/messages';
import { validateConfig } from '@vap/runtime';
import { CallsConfig } from '../config/calls.config';
import { pricePerMinutePaise } from './call-charges';

describe('the price of a call by its billing rate', () => {
  const config = validateConfig(CallsConfig, { NODE_ENV: 'development' });
  const direct = { pricePerMinutePaise: null };

  it('charges a test run’s session the documented test rate (INR 1.00 a minute), other calls the calls’ price', () => {
    expect(config.TEST_CALL_PRICE_PER_MINUTE_PAISE).toBe(100);
    expect(pricePerMinutePaise('test', direct, config)).toBe(100);
    expect(pricePerMinutePaise('standard', direct, config)).toBe(400);
    // 90 s of a test session: INR 1.50, where a call would be INR 6.00.
    expect(creditsPaise(90, pricePerMinutePaise('test', direct, config))).toBe(150);
    expect(creditsPaise(90, pricePerMinutePaise('standard', direct, config))).toBe(600);
  });

  it('prices a reseller’s client’s calls at its rate card, and its test runs at the test rate', () => {
    const client = { pricePerMinutePaise: 650 };
    expect(pricePerMinutePaise('standard', client, config)).toBe(650);
    expect(pricePerMinutePaise('test', client, config)).toBe(100);
  });

  it('takes the deployment’s settings', () => {
    const priced = validateConfig(CallsConfig, {
      NODE_ENV: 'development',
      CALL_PRICE_PER_MINUTE_PAISE: '500',
      TEST_CALL_PRICE_PER_MINUTE_PAISE: '0',
    });
    expect(pricePerMinutePaise('test', direct, priced)).toBe(0);
    expect(pricePerMinutePaise('standard', direct, priced)).toBe(500);
  });
});

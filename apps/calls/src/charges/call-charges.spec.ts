import { validateConfig } from '@vap/runtime';
import { CallsConfig } from '../config/calls.config';
import { pricePerMinutePaise } from './call-charges';
import { creditsPaise } from './credits';

describe('the price of a call by its billing rate', () => {
  const config = validateConfig(CallsConfig, { NODE_ENV: 'development' });

  it('charges a test run’s session the documented test rate (INR 1.00 a minute), other calls the calls’ price', () => {
    expect(config.TEST_CALL_PRICE_PER_MINUTE_PAISE).toBe(100);
    expect(pricePerMinutePaise('test', config)).toBe(100);
    expect(pricePerMinutePaise('standard', config)).toBe(400);
    // 90 s of a test session: INR 1.50, where a call would be INR 6.00.
    expect(creditsPaise(90, pricePerMinutePaise('test', config))).toBe(150);
    expect(creditsPaise(90, pricePerMinutePaise('standard', config))).toBe(600);
  });

  it('takes the deployment’s settings', () => {
    const priced = validateConfig(CallsConfig, {
      NODE_ENV: 'development',
      CALL_PRICE_PER_MINUTE_PAISE: '500',
      TEST_CALL_PRICE_PER_MINUTE_PAISE: '0',
    });
    expect(pricePerMinutePaise('test', priced)).toBe(0);
    expect(pricePerMinutePaise('standard', priced)).toBe(500);
  });
});

import { isAllowedOrigin } from './browser-session.dto';

describe('isAllowedOrigin', () => {
  it.each([
    'https://app.example.com',
    'https://app.example.com:8443',
    'http://localhost:5173',
    'http://127.0.0.1:8080',
    'http://[::1]:3000',
  ])('takes %s', (origin) => {
    expect(isAllowedOrigin(origin, false)).toBe(true);
  });

  it.each([
    'http://app.example.com',
    'https://app.example.com/',
    'https://app.example.com/page',
    'https://APP.example.com',
    'https://app.example.com:443',
    'app.example.com',
    'wss://app.example.com',
    'https://user@app.example.com',
    'null',
    '',
    42,
  ])('refuses %s', (origin) => {
    expect(isAllowedOrigin(origin, false)).toBe(false);
  });

  it('takes plain http on any host in development only', () => {
    expect(isAllowedOrigin('http://192.168.1.20:3000', true)).toBe(true);
    expect(isAllowedOrigin('http://192.168.1.20:3000', false)).toBe(false);
    expect(isAllowedOrigin('http://192.168.1.20:3000/x', true)).toBe(false);
  });
});

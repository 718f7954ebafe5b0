import { apiBaseUrl } from './api-base-url';

describe('apiBaseUrl', () => {
  it('takes the SDK spelling as it is and a bare origin as its /v1', () => {
    expect(apiBaseUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1');
    expect(apiBaseUrl('https://api.openai.com/v1/')).toBe('https://api.openai.com/v1');
    expect(apiBaseUrl('https://api.openai.com')).toBe('https://api.openai.com/v1');
    expect(apiBaseUrl('https://api.openai.com/')).toBe('https://api.openai.com/v1');
    expect(apiBaseUrl(' http://127.0.0.1:8080 ')).toBe('http://127.0.0.1:8080/v1');
  });

  it('keeps a base with a path of its own (gateways, other API versions)', () => {
    expect(apiBaseUrl('https://api.groq.com/openai/v1')).toBe('https://api.groq.com/openai/v1');
    expect(apiBaseUrl('https://gw.example/v1beta/openai/')).toBe('https://gw.example/v1beta/openai');
  });
});

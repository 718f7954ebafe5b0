import { ProviderChain } from './provider-chain';

describe('ProviderChain', () => {
  it('moves to the next provider once, and stays there', () => {
    const chain = new ProviderChain(['deepgram', 'openai']);
    expect(chain.current).toBe('deepgram');
    expect(chain.fallBackFrom('deepgram')).toBe(true);
    expect(chain.current).toBe('openai');
    // A request still in flight on the provider that failed fails too: it is retried on the current one.
    expect(chain.fallBackFrom('deepgram')).toBe(true);
    expect(chain.current).toBe('openai');
    // The last one failing leaves nothing to fall back on.
    expect(chain.fallBackFrom('openai')).toBe(false);
    expect(chain.current).toBe('openai');
  });

  it('has nothing to fall back on with one provider', () => {
    const chain = new ProviderChain(['offline']);
    expect(chain.fallBackFrom('offline')).toBe(false);
    expect(() => new ProviderChain([])).toThrow();
  });
});

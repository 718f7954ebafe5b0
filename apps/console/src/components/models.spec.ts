import { writtenBy } from './models';

describe('writtenBy', () => {
  it('names the provider by its name and the model that wrote the line', () => {
    expect(writtenBy({ llm: 'groq', llm_model: 'llama-3.3-70b-versatile' })).toBe(
      'Groq · llama-3.3-70b-versatile',
    );
    expect(writtenBy({ llm: 'custom', llm_model: 'acme/llama-70b' })).toBe(
      'Custom model server · acme/llama-70b',
    );
    expect(writtenBy({ llm: 'platform', llm_model: 'gpt-4o-mini' })).toBe(
      'Deployment default model · gpt-4o-mini',
    );
  });

  it('says the offline engine once, and nothing for a line no model wrote', () => {
    expect(writtenBy({ llm: 'offline', llm_model: 'offline' })).toBe('Offline engine');
    expect(writtenBy({ llm: null, llm_model: null })).toBeNull();
    expect(writtenBy(undefined)).toBeNull();
  });
});

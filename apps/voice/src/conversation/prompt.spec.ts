import { agentSettings } from './testing/conversation-harness';
import { buildSystemPrompt, languageInstruction, substituteVariables } from './prompt';

describe('prompt', () => {
  it('substitutes {{variables}} and leaves unknown ones as written', () => {
    expect(
      substituteVariables('Hi {{ name }}, order {{order_id}} {{missing}}', { name: 'Asha', order_id: 42 }),
    ).toBe('Hi Asha, order 42 {{missing}}');
  });

  it('adds end-call, transfer, knowledge and language sections only for enabled fields', () => {
    const full = buildSystemPrompt(
      agentSettings({
        prompt: 'You sell {{product}}.',
        endCallInstructions: 'End when {{name}} says bye.',
        transferEnabled: true,
        transferNumber: '+15550000000',
        transferInstructions: 'Transfer billing questions.',
        hasKnowledge: true,
        spokenLanguages: ['en', 'hi'],
      }),
      { product: 'solar panels', name: 'Asha' },
    );
    expect(full).toContain('You sell solar panels.');
    expect(full).toContain('end_call tool');
    expect(full).toContain('End when Asha says bye.');
    expect(full).toContain('Transfer billing questions.');
    expect(full).toContain('search_knowledge_base');
    expect(full).toContain('English or Hindi');

    const bare = buildSystemPrompt(
      agentSettings({ endCallEnabled: false, transferEnabled: true, transferNumber: null }),
      {},
    );
    expect(bare).not.toContain('end_call');
    expect(bare).not.toContain('transfer_call');
    expect(bare).not.toContain('search_knowledge_base');
  });

  it('states one language or lets the caller choose between two', () => {
    expect(languageInstruction(['hinglish'])).toMatch(/^Speak Hinglish/);
    expect(languageInstruction([])).toBe('Speak English throughout the call.');
    expect(languageInstruction(['en', 'ta'])).toContain('English or Tamil');
  });
});

import type { BrowserSessionDto } from '@vap/api';
import { observedCall } from './test-runner.service';

const providers = { stt: 'offline', tts: 'offline' } as const;

/** A settled test session as the calls service answers it, with the lines given. */
const record = (transcript: unknown[]) =>
  ({
    end_reason: 'caller_hung_up',
    variables: {},
    session: { transcript, tool_calls: [], extraction: null, variables: {} },
  }) as unknown as BrowserSessionDto;

describe('observedCall', () => {
  it('names the model that wrote each agent line of the recorded session', () => {
    const observed = observedCall(
      record([
        {
          role: 'bot',
          content: 'Hello!',
          timestamp: 't',
          providers: { ...providers, llm: null, llm_model: null },
        },
        { role: 'user', content: 'Where is my order?', timestamp: 't' },
        {
          role: 'bot',
          content: 'It ships today.',
          timestamp: 't',
          latency: { voice_to_voice_ms: 640 },
          providers: { ...providers, llm: 'anthropic', llm_model: 'claude-3-5-haiku-latest' },
        },
        {
          role: 'bot',
          content: 'Anything else?',
          timestamp: 't',
          providers: { ...providers, llm: 'openai', llm_model: 'gpt-4o-mini' },
        },
        // A line recorded before lines named their model.
        { role: 'bot', content: 'Bye.', timestamp: 't', providers: { ...providers, llm: 'platform' } },
      ]),
      null,
    );
    expect(observed.transcript).toEqual([
      { role: 'agent', text: 'Hello!', latency_ms: null, model: null },
      { role: 'caller', text: 'Where is my order?', latency_ms: null, model: null },
      {
        role: 'agent',
        text: 'It ships today.',
        latency_ms: 640,
        model: { provider: 'anthropic', model: 'claude-3-5-haiku-latest' },
      },
      {
        role: 'agent',
        text: 'Anything else?',
        latency_ms: null,
        model: { provider: 'openai', model: 'gpt-4o-mini' },
      },
      { role: 'agent', text: 'Bye.', latency_ms: null, model: null },
    ]);
  });

  it('names no model on the lines only the test caller heard', () => {
    const observed = observedCall(null, {
      heard: ['Hello!'],
      conversation: [
        { role: 'agent', text: 'Hello!' },
        { role: 'caller', text: 'Hi.' },
      ],
      latenciesMs: [],
      endedBy: 'caller',
    });
    expect(observed.transcript.map((l) => l.model)).toEqual([null, null]);
  });
});

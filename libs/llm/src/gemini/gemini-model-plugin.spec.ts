import type { EffectiveExtractionKey } from '@vap/messages';
import { endCallTool, searchKnowledgeBaseTool } from '../agent-tools';
import type { ChatDelta, ChatMessage } from '../chat-model';
import { LlmError } from '../llm-error';
import type { ModelConfig } from '../plugin';
import { openGeminiLive } from '../realtime/gemini-live';
import { describeKeyCheckContract } from '../testing/chat-adapter-contract';
import {
  collect,
  describeChatModelContract,
  failureOf,
  type ContractAnswer,
} from '../testing/chat-model-contract';
import { FakeGeminiServer, type FakeGeminiReply } from '../testing/fake-gemini-server';
import { geminiApiBase, geminiModelPlugin, GEMINI_MODELS } from '.';

const KEY = 'AIzaSyFAKE-gemini-0123456789abcdefghijk';
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are Maya.' },
  { role: 'user', content: 'Can I end the call?' },
];

/** Google's status names for the statuses the chat model contract plays. */
const GOOGLE_STATUSES: Record<number, string> = {
  401: 'UNAUTHENTICATED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
};

/** The chat model contract's answers as Gemini sends them. */
function geminiAnswer(answer: ContractAnswer): FakeGeminiReply {
  switch (answer.kind) {
    case 'silent':
      return { kind: 'hang' };
    case 'error':
      return { ...answer, googleStatus: GOOGLE_STATUSES[answer.status] };
    case 'cut-short':
      // A candidate's text, then the stream ends before any finishReason.
      return {
        kind: 'sse',
        events: [
          JSON.stringify({
            candidates: [{ index: 0, content: { role: 'model', parts: [{ text: answer.text }] } }],
          }),
        ],
      };
    default:
      return answer;
  }
}

describe('Google Gemini: the chat adapter against a fake Gemini API', () => {
  let fake: FakeGeminiServer;
  const model = (overrides: Partial<ModelConfig> = {}) =>
    geminiModelPlugin.create({
      baseUrl: fake.apiUrl,
      apiKey: fake.apiKey,
      model: 'gemini-2.5-flash',
      timeoutMs: 2000,
      ...overrides,
    });

  beforeAll(async () => {
    fake = await FakeGeminiServer.start({ apiKey: KEY });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('streams the reply, sends the parameters as Gemini names them and the key as x-goog-api-key, and reports usage once', async () => {
    fake.script({
      kind: 'reply',
      text: ['Yes,', ' of', ' course.'],
      usage: { inputTokens: 42, outputTokens: 7 },
    });
    const deltas = await collect(
      model().stream({
        messages: MESSAGES,
        tools: [endCallTool()],
        temperature: 0.4,
        maxTokens: 120,
        topP: 0.9,
      }),
    );
    expect(deltas).toEqual([
      { type: 'text', text: 'Yes,' },
      { type: 'text', text: ' of' },
      { type: 'text', text: ' course.' },
      { type: 'usage', usage: { inputTokens: 42, outputTokens: 7 } },
    ]);
    const req = fake.last;
    expect(req.apiKey).toBe(KEY);
    expect(req.model).toBe('gemini-2.5-flash');
    expect(req.generationConfig).toEqual({ temperature: 0.4, maxOutputTokens: 120, topP: 0.9 });
    expect(req.systemInstruction).toEqual({ parts: [{ text: 'You are Maya.' }] });
    expect(req.contents).toEqual([{ role: 'user', parts: [{ text: 'Can I end the call?' }] }]);
    const end = endCallTool();
    expect(req.tools).toEqual([{ functionDeclarations: [expect.objectContaining({ name: end.name })] }]);
    expect(req.tools?.[0].functionDeclarations?.[0].description).toBe(end.description);
  });

  it("sends the agent's parameters when the turn names none, and no tools or config when there are none", async () => {
    fake.script({ kind: 'reply', text: ['Ok.'] });
    await collect(
      model({ temperature: 0.2, maxTokens: 50, topP: 0.5 }).stream({ messages: MESSAGES, tools: [] }),
    );
    expect(fake.last.generationConfig).toEqual({ temperature: 0.2, maxOutputTokens: 50, topP: 0.5 });
    expect(fake.last.tools).toBeUndefined();
    fake.script({ kind: 'reply', text: ['Ok.'] });
    await collect(model().stream({ messages: MESSAGES, tools: [] }));
    expect(fake.last.body.generationConfig).toBeUndefined();
  });

  it('gives function calls ids and yields them after the text, then the usage, wherever in the stream they came', async () => {
    for (const callsApart of [false, true]) {
      fake.script({
        kind: 'reply',
        text: ['Let me check.'],
        functionCalls: [
          { name: 'search_knowledge_base', args: { query: 'opening hours é' } },
          { name: 'end_call', args: {} },
        ],
        callsApart,
        usage: { inputTokens: 30, outputTokens: 12 },
      });
      const deltas = await collect(
        model().stream({ messages: MESSAGES, tools: [searchKnowledgeBaseTool(), endCallTool()] }),
      );
      expect(deltas).toEqual([
        { type: 'text', text: 'Let me check.' },
        {
          type: 'tool_call',
          call: {
            id: expect.stringMatching(/^call_/),
            name: 'search_knowledge_base',
            arguments: { query: 'opening hours é' },
          },
        },
        { type: 'tool_call', call: { id: expect.stringMatching(/^call_/), name: 'end_call', arguments: {} } },
        { type: 'usage', usage: { inputTokens: 30, outputTokens: 12 } },
      ]);
      const ids = deltas.flatMap((d) => (d.type === 'tool_call' ? [d.call.id] : []));
      expect(new Set(ids).size).toBe(2);
    }
  });

  it('sends a conversation with tool calls as model functionCall and user functionResponse parts', async () => {
    fake.script({ kind: 'reply', text: ['We open at nine.'] });
    await collect(
      model().stream({
        messages: [
          ...MESSAGES,
          {
            role: 'assistant',
            content: 'Let me check.',
            tool_calls: [
              { id: 'call_1', name: 'search_knowledge_base', arguments: { query: 'hours' } },
              { id: 'call_2', name: 'lookup_order', arguments: { order: 42 } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'Open 9 to 5.' },
          { role: 'tool', tool_call_id: 'call_2', content: '{"status":"shipped"}' },
          { role: 'system', content: 'The caller is a premium customer.' },
        ],
        tools: [searchKnowledgeBaseTool()],
      }),
    );
    expect(fake.last.contents).toEqual([
      { role: 'user', parts: [{ text: 'Can I end the call?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Let me check.' },
          { functionCall: { name: 'search_knowledge_base', args: { query: 'hours' } } },
          { functionCall: { name: 'lookup_order', args: { order: 42 } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'search_knowledge_base', response: { output: 'Open 9 to 5.' } } },
          { functionResponse: { name: 'lookup_order', response: { output: '{"status":"shipped"}' } } },
          { text: '(Note, not said by the caller: The caller is a premium customer.)' },
        ],
      },
    ]);
  });

  it('opens a conversation the agent starts with a user turn, since Gemini refuses empty contents', async () => {
    fake.script({ kind: 'reply', text: ['Hello!'] });
    await collect(model().stream({ messages: [{ role: 'system', content: 'Greet.' }], tools: [] }));
    expect(fake.last.contents).toHaveLength(1);
    expect(fake.last.contents[0].role).toBe('user');
  });

  it("quotes Google's status name before its words", async () => {
    fake.script({
      kind: 'error',
      status: 429,
      message: 'Resource has been exhausted (e.g. check quota).',
      googleStatus: 'RESOURCE_EXHAUSTED',
    });
    const err = await failureOf(collect(model().stream({ messages: MESSAGES, tools: [] })));
    expect(err.message).toMatch(/429: RESOURCE_EXHAUSTED: Resource has been exhausted/);
  });

  it('turns a key Google does not know into a 400 LlmError, the key not in it', async () => {
    const err = await failureOf(
      collect(
        model({ apiKey: 'AIzaSyWRONG-0123456789abcdefghijklmnop' }).stream({ messages: MESSAGES, tools: [] }),
      ),
    );
    expect(err).toMatchObject({ failure: 'status', upstreamStatus: 400 });
    expect(err.message).toContain('API key not valid');
    expect(err.message).not.toContain('AIzaSyWRONG');
  });

  it('fails a reply Gemini stopped for safety', async () => {
    fake.script({ kind: 'reply', text: ['I can'], finishReason: 'SAFETY' });
    const got: ChatDelta[] = [];
    const safety = await failureOf(
      (async () => {
        for await (const d of model().stream({ messages: MESSAGES, tools: [] })) got.push(d);
      })(),
    );
    expect(safety.failure).toBe('protocol');
    expect(safety.message).toContain('SAFETY');
    expect(got.some((d) => d.type === 'usage')).toBe(false);
  });

  it('fails a prompt Gemini blocked, and an error sent inside the stream, never quoting the key', async () => {
    fake.script({
      kind: 'sse',
      events: [JSON.stringify({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } })],
    });
    expect((await failureOf(collect(model().stream({ messages: MESSAGES, tools: [] })))).message).toContain(
      'PROHIBITED_CONTENT',
    );
    fake.script({
      kind: 'sse',
      events: [
        JSON.stringify({ error: { code: 503, message: `overloaded (${KEY})`, status: 'UNAVAILABLE' } }),
      ],
    });
    const err = await failureOf(collect(model().stream({ messages: MESSAGES, tools: [] })));
    expect(err.message).toContain('UNAVAILABLE: overloaded');
    expect(err.message).not.toContain(KEY);
  });

  it('extracts and analyzes through the same stream, asking for JSON at temperature 0', async () => {
    const keys: EffectiveExtractionKey[] = [
      {
        name: 'interested',
        type: 'boolean',
        description: 'is the callee interested',
        source: 'inline',
        setId: null,
      },
    ];
    const transcript = [
      { role: 'bot' as const, content: 'Would you like a demo?', timestamp: '2025-01-01T10:00:00.000Z' },
      { role: 'user' as const, content: 'Yes please.', timestamp: '2025-01-01T10:00:02.000Z' },
    ];
    fake.script({ kind: 'reply', text: ['{"interested":', ' true}'] });
    expect(await model().extract({ keys, transcript, variables: {} })).toEqual({ interested: true });
    expect(fake.last.generationConfig).toEqual({ temperature: 0, responseMimeType: 'application/json' });
    expect(fake.last.apiKey).toBe(KEY);
    expect(fake.last.systemInstruction?.parts?.[0]?.text).toBeTruthy();
    fake.script({ kind: 'reply', text: ['{"summary": "The callee wants a demo."}'] });
    const answer = await model().analyze({
      transcript,
      variables: {},
      summary: true,
      summaryInstructions: null,
      successRubric: null,
    });
    expect(answer).toEqual({ summary: 'The callee wants a demo.', success: null });
  });
});

describeChatModelContract('Google Gemini', {
  apiKey: KEY,
  async startFake() {
    const server = await FakeGeminiServer.start({ apiKey: KEY });
    return {
      play: (answer) => server.script(geminiAnswer(answer)),
      lastClosed: () => server.last.closed,
      model: (timeoutMs) =>
        geminiModelPlugin.create({
          baseUrl: server.apiUrl,
          apiKey: KEY,
          model: 'gemini-2.5-flash',
          timeoutMs,
        }),
      close: () => server.close(),
    };
  },
  modelAt: (origin) =>
    geminiModelPlugin.create({ baseUrl: origin, apiKey: KEY, model: 'gemini-2.5-flash', timeoutMs: 2000 }),
});

describeKeyCheckContract('Google Gemini', {
  check: (target, apiKey, timeoutMs) =>
    geminiModelPlugin.checkKey({ baseUrl: target.baseUrl, apiKey, timeoutMs }),
  path: '/v1/models',
  expectKey: (headers, key) => {
    expect(headers['x-goog-api-key']).toBe(key);
    expect(headers.authorization).toBeUndefined();
  },
});

describe('Google Gemini: the key check against Google answers', () => {
  let fake: FakeGeminiServer;
  beforeAll(async () => {
    fake = await FakeGeminiServer.start({ apiKey: KEY });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('says a key Google answers 403 PERMISSION_DENIED (a project without the API) is refused, and a 5xx unreachable', async () => {
    fake.keyCheckFailure = {
      status: 403,
      message: 'Generative Language API has not been used in project 123 before or it is disabled.',
      googleStatus: 'PERMISSION_DENIED',
    };
    try {
      expect(
        await geminiModelPlugin.checkKey({ baseUrl: fake.baseUrl, apiKey: KEY, timeoutMs: 2000 }),
      ).toEqual({
        ok: false,
        reason: 'rejected',
        status: 403,
        message: 'Generative Language API has not been used in project 123 before or it is disabled.',
      });
      fake.keyCheckFailure = {
        status: 503,
        message: 'The service is currently unavailable.',
        googleStatus: 'UNAVAILABLE',
      };
      expect(
        await geminiModelPlugin.checkKey({ baseUrl: fake.baseUrl, apiKey: KEY, timeoutMs: 2000 }),
      ).toMatchObject({
        ok: false,
        reason: 'unreachable',
        status: 503,
      });
    } finally {
      fake.keyCheckFailure = null;
    }
  });

  it('is ok for a key Google knows, on GET {base}/models, from the bare origin or the v1beta base', async () => {
    for (const baseUrl of [fake.baseUrl, fake.apiUrl, `${fake.apiUrl}/`]) {
      expect(await geminiModelPlugin.checkKey({ baseUrl, apiKey: KEY, timeoutMs: 2000 })).toEqual({
        ok: true,
      });
    }
    expect(fake.keyChecks.slice(-3)).toEqual(Array(3).fill({ apiKey: KEY, status: 200 }));
  });

  it('says a key Google answers 400 API_KEY_INVALID is refused, quoting Google, not that Google is unreachable', async () => {
    expect(
      await geminiModelPlugin.checkKey({ baseUrl: fake.baseUrl, apiKey: 'AIzaSyWRONG', timeoutMs: 2000 }),
    ).toEqual({
      ok: false,
      reason: 'rejected',
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
    });
  });
});

describe('Google Gemini: one base URL for generateContent and Live', () => {
  it('serves the chat stream, the key check and a Gemini Live session from one fake, on one key', async () => {
    const fake = await FakeGeminiServer.start({ apiKey: KEY, live: true });
    try {
      const chat = geminiModelPlugin.create({
        baseUrl: fake.baseUrl,
        apiKey: KEY,
        model: 'gemini-2.0-flash',
        timeoutMs: 2000,
      });
      expect(await collect(chat.stream({ messages: MESSAGES, tools: [] }))).toContainEqual({
        type: 'text',
        text: ' from Gemini.',
      });
      const session = await openGeminiLive(
        {
          baseUrl: fake.baseUrl,
          apiKey: KEY,
          model: 'gemini-live-2.5-flash-preview',
          instructions: 'You are Maya.',
          voice: 'Kore',
          tools: [],
          sampleRate: 8000,
          timeoutMs: 3000,
        },
        () => undefined,
      );
      session.close();
      expect(fake.live?.last?.setup?.model).toBe('models/gemini-live-2.5-flash-preview');
      expect(fake.live?.last?.apiKey).toBe(KEY);
      const refused = await openGeminiLive(
        {
          baseUrl: fake.baseUrl,
          apiKey: 'AIzaSyWRONG',
          model: 'gemini-live-2.5-flash-preview',
          instructions: 'You are Maya.',
          voice: 'Kore',
          tools: [],
          sampleRate: 8000,
          timeoutMs: 3000,
        },
        () => undefined,
      ).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(LlmError);
    } finally {
      await fake.close();
    }
  });
});

describe('Google Gemini model plugin', () => {
  it("talks to Google's public Gemini API unless a setting says otherwise, a bare origin meaning its v1beta", () => {
    expect(geminiModelPlugin).toMatchObject({ name: 'google', label: 'Google Gemini' });
    expect(geminiModelPlugin.defaultBaseUrl).toBe('https://generativelanguage.googleapis.com/v1beta');
    expect(geminiApiBase('https://generativelanguage.googleapis.com')).toBe(
      'https://generativelanguage.googleapis.com/v1beta',
    );
    expect(geminiApiBase('https://gw.example/google/v1beta/')).toBe('https://gw.example/google/v1beta');
  });

  it('lists chat models with tools and the Live models as speech to speech with their voices, whose chat adapter points to the realtime driver', async () => {
    expect(GEMINI_MODELS.filter((m) => !m.speechToSpeech).map((m) => m.id)).toEqual(
      expect.arrayContaining(['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.0-flash']),
    );
    const live = GEMINI_MODELS.filter((m) => m.speechToSpeech);
    expect(live.map((m) => m.id)).toEqual(['gemini-live-2.5-flash-preview', 'gemini-2.0-flash-live-001']);
    for (const card of live) {
      expect(card.voices).toEqual(expect.arrayContaining(['Puck', 'Charon', 'Kore', 'Fenrir', 'Aoede']));
      const chat = geminiModelPlugin.create({
        baseUrl: 'http://127.0.0.1:1',
        apiKey: 'k',
        model: card.id,
        timeoutMs: 1000,
      });
      const err = await failureOf(collect(chat.stream({ messages: MESSAGES, tools: [] })));
      expect(err.message).toMatch(/speech-to-speech model: the realtime driver runs it/);
    }
  });
});

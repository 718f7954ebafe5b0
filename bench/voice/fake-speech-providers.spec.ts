import {
  asksForToolCall,
  ChatCompletionRequest,
  FakeSpeechProviders,
  multipartFile,
  OPENAI_PCM_SAMPLE_RATE,
  replyChunks,
  startFakeSpeechProviders,
} from './fake-speech-providers';

describe('fake speech providers', () => {
  let fakes: FakeSpeechProviders;

  beforeAll(async () => {
    fakes = await startFakeSpeechProviders({
      transcript: 'where is my order',
      reply: 'It ships tomorrow morning, thank you.',
      speechSeconds: 0.5,
    });
  });
  afterAll(() => fakes.close());

  it('transcribes a multipart upload to the fixed text, as JSON or plain text', async () => {
    const form = () => {
      const data = new FormData();
      data.append('file', new Blob([Buffer.alloc(3200)], { type: 'audio/wav' }), 'utterance.wav');
      data.append('model', 'whisper-1');
      return data;
    };
    const json = await fetch(`${fakes.baseUrl}/audio/transcriptions`, { method: 'POST', body: form() });
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({ text: 'where is my order' });
    const textForm = form();
    textForm.append('response_format', 'text');
    const text = await fetch(`${fakes.baseUrl}/audio/transcriptions`, { method: 'POST', body: textForm });
    expect(await text.text()).toBe('where is my order');
  });

  it('streams the reply as chat-completion chunks ending in [DONE]', async () => {
    const res = await fetch(`${fakes.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((e) => e.replace(/^data: /, ''));
    expect(events[events.length - 1]).toBe('[DONE]');
    const chunks = events
      .slice(0, -1)
      .map(
        (e) => JSON.parse(e) as { choices: { delta: { content?: string }; finish_reason: string | null }[] },
      );
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe(
      'It ships tomorrow morning, thank you.',
    );
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe('stop');
  });

  it('answers a non-streaming completion with the whole reply', async () => {
    const res = await fetch(`${fakes.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: [] }),
    });
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0].message.content).toBe('It ships tomorrow morning, thank you.');
  });

  it('synthesises the configured seconds of 24 kHz PCM16, raw or as WAV', async () => {
    const speak = (format: string) =>
      fetch(`${fakes.baseUrl}/audio/speech`, {
        method: 'POST',
        body: JSON.stringify({
          model: 'tts-1',
          voice: 'alloy',
          input: 'Hello there.',
          response_format: format,
        }),
      });
    const pcm = Buffer.from(await (await speak('pcm')).arrayBuffer());
    expect(pcm.length).toBe(0.5 * OPENAI_PCM_SAMPLE_RATE * 2);
    expect(pcm.some((b) => b !== 0)).toBe(true);
    const wav = Buffer.from(await (await speak('wav')).arrayBuffer());
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(OPENAI_PCM_SAMPLE_RATE);
    expect(wav.subarray(44)).toEqual(pcm);
    expect((await speak('mp3')).status).toBe(400);
  });

  it('serves the same APIs without the /v1 prefix, counts requests and refuses unknown paths', async () => {
    const root = fakes.rootUrl;
    const before = { ...fakes.counts };
    const res = await fetch(`${root}/audio/speech`, {
      method: 'POST',
      body: JSON.stringify({ input: 'x', response_format: 'pcm' }),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const missing = await fetch(`${root}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    await missing.text();
    expect(fakes.counts.speech).toBe(before.speech + 1);
    expect(fakes.counts.rejected).toBe(before.rejected + 1);
  });

  it('splits a reply into word-boundary chunks that join back to it', () => {
    expect(replyChunks('one two three four five six').join('')).toBe('one two three four five six');
    expect(replyChunks('one two three four five six')).toHaveLength(3);
    expect(replyChunks('single')).toEqual(['single']);
  });

  it('transcribes from the uploaded file when given a function, and shows the model what it was asked', async () => {
    const asked: ChatCompletionRequest[] = [];
    const scripted = await startFakeSpeechProviders({
      transcript: (file) => `${file.length} bytes starting ${file.subarray(0, 4).toString('ascii')}`,
      reply: 'Fine.',
      speechSeconds: 0.1,
      onCompletion: (request) => asked.push(request),
    });
    try {
      const data = new FormData();
      data.append('model', 'whisper-1');
      const wav = Buffer.concat([
        Buffer.from('RIFF'),
        Buffer.from('\r\n--not-the-boundary'),
        Buffer.alloc(10),
      ]);
      data.append('file', new Blob([wav], { type: 'audio/wav' }), 'utterance.wav');
      data.append('response_format', 'json');
      const res = await fetch(`${scripted.baseUrl}/audio/transcriptions`, { method: 'POST', body: data });
      expect(await res.json()).toEqual({ text: `${wav.length} bytes starting RIFF` });
      const chat = await fetch(`${scripted.baseUrl}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
      await chat.text();
      expect(asked).toEqual([{ stream: true, messages: [{ role: 'user', content: 'hi' }] }]);
    } finally {
      await scripted.close();
    }
  });

  it('reads the file part of a multipart form by its declared boundary', () => {
    const body = Buffer.from(
      '--b1\r\nContent-Disposition: form-data; name="model"\r\n\r\nm\r\n' +
        '--b1\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n' +
        'RIFF\r\nbytes\r\n--b1--\r\n',
    );
    expect(multipartFile(body, 'multipart/form-data; boundary=b1')?.toString()).toBe('RIFF\r\nbytes');
    expect(multipartFile(body, 'multipart/form-data; boundary="b1"')?.toString()).toBe('RIFF\r\nbytes');
    expect(multipartFile(body, 'application/json')).toBeUndefined();
  });
  it('calls the scripted tool when the caller spoke last and it is offered, and answers its result in words', async () => {
    const streamed: string[] = [];
    const seen: { request: ChatCompletionRequest; receivedAt: number }[] = [];
    const scripted = await startFakeSpeechProviders({
      transcript: 'where is my order',
      reply: 'It ships tomorrow.',
      speechSeconds: 0.1,
      toolCall: {
        name: 'order_status',
        arguments: (id) => ({ ref: id }),
        onStreamed: (id) => streamed.push(id),
      },
      onCompletion: (request, receivedAt) => seen.push({ request, receivedAt }),
    });
    try {
      const tools = [{ type: 'function', function: { name: 'order_status' } }];
      const events = async (messages: unknown[]) => {
        const res = await fetch(`${scripted.baseUrl}/chat/completions`, {
          method: 'POST',
          body: JSON.stringify({ stream: true, messages, tools }),
        });
        return (await res.text())
          .split('\n\n')
          .filter((e) => e.startsWith('data: {'))
          .map(
            (e) =>
              JSON.parse(e.slice(6)) as {
                choices: {
                  delta: {
                    content?: string;
                    tool_calls?: { id?: string; function: { arguments?: string } }[];
                  };
                  finish_reason: string | null;
                }[];
              },
          );
      };
      const first = await events([{ role: 'user', content: 'where is my order' }]);
      const fragments = first.flatMap((e) => e.choices[0].delta.tool_calls ?? []);
      expect(fragments[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'order_status' } });
      const id = fragments[0].id as string;
      expect(JSON.parse(fragments.map((f) => f.function.arguments).join(''))).toEqual({ ref: id });
      expect(first.at(-1)?.choices[0].finish_reason).toBe('tool_calls');
      expect(streamed).toEqual([id]);

      const second = await events([
        { role: 'user', content: 'where is my order' },
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function' }] },
        { role: 'tool', tool_call_id: id, content: '{}' },
      ]);
      expect(second.map((e) => e.choices[0].delta.content ?? '').join('')).toBe('It ships tomorrow.');
      expect(streamed).toHaveLength(1);
      expect(seen).toHaveLength(2);
      expect(seen[1].receivedAt).toBeGreaterThanOrEqual(seen[0].receivedAt);
    } finally {
      await scripted.close();
    }
  });

  it('asks for the tool only when it is offered and the caller spoke last', () => {
    const tools = [{ function: { name: 'order_status' } }];
    const user = { role: 'user', content: 'hi' };
    expect(asksForToolCall({ tools, messages: [user] }, 'order_status')).toBe(true);
    expect(asksForToolCall({ tools, messages: [user] }, 'other')).toBe(false);
    expect(asksForToolCall({ messages: [user] }, 'order_status')).toBe(false);
    expect(
      asksForToolCall(
        { tools, messages: [user, { role: 'tool', tool_call_id: 'c', content: '{}' }] },
        'order_status',
      ),
    ).toBe(false);
  });
});

import { serverSentEventData } from './sse';

async function events(chunks: (string | Uint8Array)[]): Promise<string[]> {
  async function* body() {
    for (const c of chunks) yield c;
  }
  const out: string[] = [];
  for await (const data of serverSentEventData(body())) out.push(data);
  return out;
}

describe('serverSentEventData', () => {
  it('yields each event’s data, whatever the line endings and chunk boundaries', async () => {
    expect(await events(['data: one\n\nda', 'ta: two\r', '\n\r\ndata:three\r\rdata: four\n\n'])).toEqual([
      'one',
      'two',
      'three',
      'four',
    ]);
  });

  it('joins multi-line data, skips comments and other fields', async () => {
    expect(await events([': keep-alive\n\nevent: x\nid: 1\ndata: a\ndata: b\nretry: 5\n\n'])).toEqual([
      'a\nb',
    ]);
  });

  it('decodes UTF-8 split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: café ✓\n\n');
    expect(await events([bytes.slice(0, 10), bytes.slice(10, 14), bytes.slice(14)])).toEqual(['café ✓']);
  });

  it('delivers a last event that lacks the closing blank line', async () => {
    expect(await events(['data: one\n\ndata: [DONE]'])).toEqual(['one', '[DONE]']);
  });
});

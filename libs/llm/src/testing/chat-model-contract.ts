// What every chat model plugin must do whatever its wire, as one set of specs each plugin's spec runs against its
// own provider's fake: yield text as it comes, turn a stall, silence, an error status (auth, 429, 5xx), a server it
// cannot reach and a stream cut short into an LlmError within the deadline, stop at once on abort closing the
// connection, and keep the key out of every error. Each spec says how its fake plays the few answers below;
// provider-specific behaviour (what goes on the wire, its own failure shapes) stays in its own spec.
import { createServer } from 'node:net';
import type { ChatDelta, ChatMessage } from '../chat-model';
import type { LanguageModel } from '../language-model';
import { LlmError } from '../llm-error';

/** The answers the contract asks a provider's fake to play, in that provider's protocol. */
export type ContractAnswer =
  /** A streamed reply in these text pieces; `stallAfter`: only that many pieces, then open and silent. */
  | { kind: 'reply'; text: string[]; stallAfter?: number }
  /** No answer at all, not even headers. */
  | { kind: 'silent' }
  /** Headers sent, then nothing at all. */
  | { kind: 'silent-body' }
  /** An error status with the provider's error body quoting `message`. */
  | { kind: 'error'; status: number; message: string }
  /** A stream that sends the start of a reply with this text and ends before the reply is complete. */
  | { kind: 'cut-short'; text: string };

export interface ChatModelFake {
  /** Has the fake answer the next request so. */
  play(answer: ContractAnswer): void;
  /** When the connection of the last request closed (performance.now()). */
  lastClosed(): Promise<number>;
  /** The plugin's model pointed at this fake, with the fake's key. */
  model(timeoutMs: number): LanguageModel;
  close(): Promise<void>;
}

export interface ChatModelContract {
  /** The key the fake takes; the contract checks it never shows in an error. */
  apiKey: string;
  startFake(): Promise<ChatModelFake>;
  /** The plugin's model, with the key, pointed at a server at this origin (`http://127.0.0.1:<port>`). */
  modelAt(origin: string): LanguageModel;
}

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are Maya.' },
  { role: 'user', content: 'Can I end the call?' },
];
/** How long past its deadline a failure may take to surface. */
const SLACK_MS = 1500;

/** Every delta of a stream, in order. */
export async function collect(deltas: AsyncIterable<ChatDelta>): Promise<ChatDelta[]> {
  const out: ChatDelta[] = [];
  for await (const d of deltas) out.push(d);
  return out;
}

/** The LlmError a run fails with (the spec fails if it succeeds or throws anything else). */
export async function failureOf(run: Promise<unknown>): Promise<LlmError> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}

/** A local port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

export function describeChatModelContract(name: string, contract: ChatModelContract): void {
  describe(`${name}: the chat model contract against its fake`, () => {
    let fake: ChatModelFake;
    const KEY = contract.apiKey;
    const model = (timeoutMs = 2000) => fake.model(timeoutMs);
    const turn = { messages: MESSAGES, tools: [] };

    beforeAll(async () => {
      fake = await contract.startFake();
    });
    afterAll(async () => {
      await fake.close();
    });

    it('yields text as it comes, and a stall mid-stream is a timeout LlmError within the deadline', async () => {
      fake.play({ kind: 'reply', text: ['Hello there.', ' And more.'], stallAfter: 1 });
      const got: ChatDelta[] = [];
      const started = performance.now();
      const err = await failureOf(
        (async () => {
          for await (const d of model(300).stream(turn)) got.push(d);
        })(),
      );
      expect(got).toEqual([{ type: 'text', text: 'Hello there.' }]);
      expect(err.failure).toBe('timeout');
      expect(performance.now() - started).toBeLessThan(300 + SLACK_MS);
    });

    it('is a timeout LlmError within the deadline when the server sends nothing, or headers and nothing', async () => {
      for (const kind of ['silent', 'silent-body'] as const) {
        fake.play({ kind });
        const started = performance.now();
        const err = await failureOf(collect(model(300).stream(turn)));
        const elapsed = performance.now() - started;
        expect(err.failure).toBe('timeout');
        expect(elapsed).toBeGreaterThanOrEqual(290);
        expect(elapsed).toBeLessThan(300 + SLACK_MS);
      }
    });

    it('stops at once on abort, closing the connection', async () => {
      fake.play({ kind: 'reply', text: ['Hello there.', ' And more.'], stallAfter: 1 });
      const controller = new AbortController();
      const it = model(10_000).stream(turn, controller.signal)[Symbol.asyncIterator]();
      expect((await it.next()).value).toEqual({ type: 'text', text: 'Hello there.' });
      const next = it.next();
      const abortedAt = performance.now();
      controller.abort();
      const err = await failureOf(next);
      expect(err.failure).toBe('aborted');
      expect((await fake.lastClosed()) - abortedAt).toBeLessThan(500);
    });

    for (const [status, words] of [
      [401, 'Incorrect API key provided'],
      [429, 'Rate limit reached for requests'],
      [500, 'The server had an error while processing your request'],
    ] as const) {
      it(`turns a ${status} into an LlmError with the status and the provider's words, never quoting the key`, async () => {
        fake.play({ kind: 'error', status, message: `${words} (key ${KEY}).` });
        const err = await failureOf(collect(model().stream(turn)));
        expect(err.failure).toBe('status');
        expect(err.upstreamStatus).toBe(status);
        expect(err.message).toContain(String(status));
        expect(err.message).toContain(words);
        expect(err.message).not.toContain(KEY);
        expect(err.message).not.toContain(KEY.slice(0, 12));
      });
    }

    it('turns a server it cannot reach into a network LlmError', async () => {
      const port = await deadPort();
      const dead = contract.modelAt(`http://127.0.0.1:${port}`);
      const err = await failureOf(collect(dead.stream(turn)));
      expect(err.failure).toBe('network');
      expect(err.message).not.toContain(KEY);
    });

    it('fails a stream that ends before the reply is complete', async () => {
      fake.play({ kind: 'cut-short', text: 'Hal' });
      const err = await failureOf(collect(model().stream(turn)));
      expect(err.failure).toBe('protocol');
    });
  });
}

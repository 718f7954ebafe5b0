// Another Node process seen over its inspector (started with --inspect=127.0.0.1:<port>), as DevTools sees it:
// the recording benchmark asks it for a full garbage collection before reading its resident memory (so the
// figure is what calls keep alive, not the garbage of the last seconds), and the media benchmark reads its
// garbage collections and samples its allocations while a round runs.
import WebSocket from 'ws';

interface InspectorReply {
  id?: number;
  result?: unknown;
  error?: { message: string };
}

export class InspectorSession {
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (result: unknown) => void; reject: (err: Error) => void }
  >();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const reply = JSON.parse(data.toString()) as InspectorReply;
      const waiter = reply.id === undefined ? undefined : this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id!);
      if (reply.error) waiter.reject(new Error(`inspector: ${reply.error.message}`));
      else waiter.resolve(reply.result);
    });
    socket.on('close', () => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error('inspector connection closed'));
      this.waiting.clear();
    });
  }

  /** Connects to the inspector listening on 127.0.0.1:`port`. */
  static async connect(port: number): Promise<InspectorSession> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    if (!targets[0]) throw new Error(`no inspector target on port ${port}`);
    const socket = new WebSocket(targets[0].webSocketDebuggerUrl, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new InspectorSession(socket);
  }

  /** One DevTools protocol command; resolves with its result. */
  call<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: (result) => resolve(result as T), reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /**
   * The value of a JavaScript expression evaluated in the process (awaited when it is a promise), as JSON;
   * an exception it throws rejects.
   */
  async evaluate<T>(expression: string): Promise<T> {
    const reply = await this.call<{
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (reply.exceptionDetails) {
      const { text, exception } = reply.exceptionDetails;
      throw new Error(`inspector: ${exception?.description ?? text}`);
    }
    return reply.result.value as T;
  }

  /** Resolves once the process has run a full (mark-compact) collection. */
  async collectGarbage(): Promise<void> {
    await this.call('HeapProfiler.collectGarbage');
  }

  close(): void {
    this.socket.close();
  }
}

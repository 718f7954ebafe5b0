// A full garbage collection in another Node process, asked for over its inspector (started with
// --inspect=127.0.0.1:<port>), as DevTools' "collect garbage" button does: the recording benchmark reads the
// voice process's resident memory after one, so the figure is what calls keep alive, not how far V8 let the
// garbage of the last seconds pile up before its next collection.
import WebSocket from 'ws';

export class InspectorGc {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const reply = JSON.parse(data.toString()) as { id?: number; error?: { message: string } };
      const waiter = reply.id === undefined ? undefined : this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id!);
      if (reply.error) waiter.reject(new Error(`inspector: ${reply.error.message}`));
      else waiter.resolve();
    });
    socket.on('close', () => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error('inspector connection closed'));
      this.waiting.clear();
    });
  }

  /** Connects to the inspector listening on 127.0.0.1:`port`. */
  static async connect(port: number): Promise<InspectorGc> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    if (!targets[0]) throw new Error(`no inspector target on port ${port}`);
    const socket = new WebSocket(targets[0].webSocketDebuggerUrl, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new InspectorGc(socket);
  }

  /** Resolves once the process has run a full (mark-compact) collection. */
  collect(): Promise<void> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method: 'HeapProfiler.collectGarbage' }));
    });
  }

  close(): void {
    this.socket.close();
  }
}

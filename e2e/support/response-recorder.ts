import { OpenApiConformance, OpenApiDocument } from './openapi-conformance';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Watches every answer a spec gets from a gateway (through `api()`, `fetch` on an upload URL, or a
 * gateway the spec started itself) and checks it against the served OpenAPI document. Problems are kept
 * until `takeProblems()`, so that a test fails on what its own traffic showed.
 */
export class ResponseRecorder {
  private conformance?: OpenApiConformance;
  private readonly pending = new Set<Promise<void>>();
  private problems: string[] = [];
  private readonly originalFetch: typeof fetch;

  constructor(private readonly documentUrl: () => string) {
    this.originalFetch = globalThis.fetch;
  }

  /** Wraps the global fetch; every answer from a loopback host is checked in the background. */
  install(): void {
    const original = this.originalFetch;
    globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const res = await original(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (LOOPBACK.has(url.hostname)) {
        const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
        this.track(this.record(method, url, res.clone()));
      }
      return res;
    };
  }

  uninstall(): void {
    globalThis.fetch = this.originalFetch;
  }

  /** Loads the served document (once). */
  async load(): Promise<OpenApiConformance> {
    for (let attempt = 1; !this.conformance; attempt++) {
      try {
        const res = await this.originalFetch(this.documentUrl());
        if (res.status !== 200) throw new Error(`GET ${this.documentUrl()} answered ${res.status}`);
        this.conformance = new OpenApiConformance((await res.json()) as OpenApiDocument);
      } catch (err) {
        // A pooled connection the gateway closed meanwhile fails once ("other side closed"); try again.
        if (attempt >= 5) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
    return this.conformance;
  }

  /** Waits for the checks still running and hands over (and forgets) the problems found so far. */
  async takeProblems(): Promise<string[]> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
    const taken = this.problems;
    this.problems = [];
    return taken;
  }

  private track(work: Promise<void>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  private async record(method: string, url: URL, res: Response): Promise<void> {
    let text: string;
    try {
      text = await res.text();
    } catch {
      return; // The caller cancelled the body (or the connection broke): nothing was answered in full.
    }
    const contentType = res.headers.get('content-type');
    let body: unknown = text || undefined;
    if (text && (contentType ?? '').includes('json')) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    try {
      const conformance = await this.load();
      this.problems.push(
        ...conformance.check({ method, path: url.pathname, status: res.status, contentType, body }),
      );
    } catch (err) {
      this.problems.push(`${method} ${url.pathname}: could not check the answer: ${(err as Error).message}`);
    }
  }
}

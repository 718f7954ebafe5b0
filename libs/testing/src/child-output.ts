import { createWriteStream, mkdirSync, WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';

export interface ChildOutputOptions {
  /** Append every line to this file (its folder is created). */
  logFile?: string;
  /** Print every line to our stdout behind this label, e.g. `[agents]`. */
  prefix?: string;
  /** Lines kept in memory for error messages. */
  keep?: number;
}

const COLORS = [36, 32, 35, 33, 34, 96, 92, 95];
const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const PINO_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'service', 'msg', 'context', 'err']);
let nextColor = 0;

/** Renders a pino JSON line as `LEVEL [context] message {extra}`; any other line is returned unchanged. */
export function formatLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof entry.level !== 'number' || entry.msg === undefined) return line;
  const level = (LEVELS[entry.level] ?? String(entry.level)).padEnd(5);
  const context = typeof entry.context === 'string' ? `[${entry.context}] ` : '';
  const extra = Object.fromEntries(Object.entries(entry).filter(([k]) => !PINO_FIELDS.has(k)));
  const extraText = Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : '';
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const errText = err ? `\n${err.stack ?? err.message ?? JSON.stringify(err)}` : '';
  return `${level} ${context}${String(entry.msg)}${extraText}${errText}`;
}

/**
 * Collects a child process's stdout and stderr line by line: keeps the last lines for error messages,
 * and copies every line to a log file and/or our stdout with a name prefix.
 */
export class ChildOutput {
  private readonly lines: string[] = [];
  private readonly keep: number;
  private readonly file?: WriteStream;
  private readonly label?: string;

  constructor(private readonly options: ChildOutputOptions = {}) {
    this.keep = options.keep ?? 40;
    if (options.logFile) {
      mkdirSync(dirname(options.logFile), { recursive: true });
      this.file = createWriteStream(options.logFile, { flags: 'a' });
      this.file.on('error', () => undefined);
    }
    if (options.prefix) {
      const color = COLORS[nextColor++ % COLORS.length];
      this.label = process.stdout.isTTY ? `\x1b[${color}m${options.prefix}\x1b[0m` : options.prefix;
    }
  }

  get logFile(): string | undefined {
    return this.options.logFile;
  }

  attach(stream: Readable | null): void {
    if (!stream) return;
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) this.push(line);
    });
    stream.on('end', () => {
      if (partial) this.push(partial);
      partial = '';
    });
  }

  push(rawLine: string): void {
    const line = rawLine.replace(/\r$/, '');
    this.lines.push(line);
    if (this.lines.length > this.keep) this.lines.shift();
    this.file?.write(`${line}\n`);
    if (this.label) {
      for (const out of formatLogLine(line).split('\n')) process.stdout.write(`${this.label} ${out}\n`);
    }
  }

  /** The last lines seen, for an error message. */
  tail(count = 20): string[] {
    return this.lines.slice(-count);
  }

  /** A description of the recent output, indented, for error messages. */
  describe(count = 20): string {
    const tail = this.tail(count);
    const body = tail.length ? tail.map((l) => `    ${l}`).join('\n') : '    (no output)';
    const where = this.options.logFile ? `\n  full log: ${this.options.logFile}` : '';
    return `  last output:\n${body}${where}`;
  }

  close(): Promise<void> {
    const file = this.file;
    if (!file || file.closed) return Promise.resolve();
    return new Promise((resolve) => file.end(() => resolve()));
  }
}

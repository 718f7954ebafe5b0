import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
let hooked = false;

/**
 * Remembers a child we spawned so that, if this process exits without stopping it (a crash, a test
 * runner calling process.exit), it is killed rather than left running on its own.
 */
export function trackChild(child: ChildProcess): void {
  if (!hooked) {
    hooked = true;
    process.on('exit', () => {
      for (const c of running) {
        if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      }
    });
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Resolves when the child has exited and its output is drained (or shortly after exit, at most). */
export function exitOf(child: ChildProcess): Promise<ExitInfo> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    let settled = false;
    const settle = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      resolve({ code, signal });
    };
    child.once('close', (code, signal) => settle(code, signal));
    child.once('exit', (code, signal) => {
      // 'close' waits for stdio to end; don't wait forever if a grandchild holds it open.
      setTimeout(() => settle(code, signal), 1000).unref();
    });
  });
}

export function describeExit({ code, signal }: ExitInfo): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/**
 * Sends `signal`, waits up to `timeoutMs` for the child to exit, then SIGKILLs it. Returns how it ended.
 */
export async function stopChild(
  child: ChildProcess,
  exited: Promise<ExitInfo>,
  signal: NodeJS.Signals = 'SIGTERM',
  timeoutMs = 20_000,
  group = false,
): Promise<ExitInfo> {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  const send = (s: NodeJS.Signals) => {
    try {
      if (group && child.pid) process.kill(-child.pid, s);
      else child.kill(s);
    } catch {
      // Already gone.
    }
  };
  send(signal);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const first = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  if (first !== 'timeout') return first;
  send('SIGKILL');
  return exited;
}

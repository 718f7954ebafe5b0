/** pino's transport: readable lines in development, else none (JSON on stdout, the production format). */
export interface LogTransport {
  target: string;
  options: Record<string, unknown>;
}

const PRETTY_TARGET = 'pino-pretty';

/**
 * Readable lines only with NODE_ENV=development. pino-pretty is a dev dependency that production images do
 * not have, so it is used only when it resolves; otherwise the logs stay JSON.
 */
export function logTransportFor(
  nodeEnv: string,
  resolve: (id: string) => string = require.resolve,
): LogTransport | undefined {
  if (nodeEnv !== 'development') return undefined;
  try {
    resolve(PRETTY_TARGET);
  } catch {
    return undefined;
  }
  // Colours follow pino-pretty's own detection (a terminal, or FORCE_COLOR as nx sets it).
  return {
    target: PRETTY_TARGET,
    options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true },
  };
}

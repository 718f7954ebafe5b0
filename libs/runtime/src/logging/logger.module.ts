import { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestContext } from '@vap/messaging';
import { logTransportFor } from './log-transport';
import { redactUrl } from './redact-url';

export const REQUEST_ID_HEADER = 'x-request-id';
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the caller's X-Request-Id when it is sane, else makes one. */
export function requestIdFrom(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(given) ? given[0] : given;
  return value && REQUEST_ID_PATTERN.test(value) ? value : randomUUID();
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** Whether `level` lets info lines through (an unknown level counts as info, pino's default). */
function logsInfo(level: string): boolean {
  const at = LEVELS.indexOf(level);
  return at === -1 || at <= LEVELS.indexOf('info');
}

/**
 * JSON logs with pino (readable lines in development); every line carries the request id of the work it
 * belongs to, HTTP or NATS.
 */
export function loggingModule(service: string, level: string, nodeEnv: string): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: {
      level,
      transport: logTransportFor(nodeEnv),
      base: { service },
      messageKey: 'msg',
      mixin: () => {
        const requestId = RequestContext.requestId();
        return requestId ? { requestId } : {};
      },
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const id = (req as IncomingMessage & { id?: string }).id ?? requestIdFrom(req);
        res.setHeader('X-Request-Id', id);
        return id;
      },
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
      // The per-request line is at info: above that level it would be built and dropped on every request.
      autoLogging: logsInfo(level) && {
        ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') || req.url === '/metrics',
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          // One-time-link tokens and signed-URL tokens travel in paths and queries: never written whole.
          url: redactUrl(req.url),
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
  });
}

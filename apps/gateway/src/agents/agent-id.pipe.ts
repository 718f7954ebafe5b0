import { ParseUUIDPipe } from '@nestjs/common';
import { AppError } from '@vap/contracts';

/** Agent ids are UUIDs; anything else names no agent, so it is a 404 like any unknown agent. */
export const agentIdPipe = new ParseUUIDPipe({ exceptionFactory: () => AppError.notFound('Agent') });

import { ParseUUIDPipe } from '@nestjs/common';
import { AppError } from '@vap/contracts';

/** Ids are UUIDs; anything else names nothing, so it is a 404 like any unknown id. */
export const endpointIdPipe = new ParseUUIDPipe({
  exceptionFactory: () => AppError.notFound('Webhook endpoint'),
});
export const deliveryIdPipe = new ParseUUIDPipe({
  exceptionFactory: () => AppError.notFound('Webhook delivery'),
});
export const webhookAgentIdPipe = new ParseUUIDPipe({ exceptionFactory: () => AppError.notFound('Agent') });

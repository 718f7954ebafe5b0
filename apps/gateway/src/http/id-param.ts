import { PipeTransform } from '@nestjs/common';
import { AppError, isUuid, PrefixedId } from '@vap/messages';

/**
 * The pipe of an id path parameter: `@Param('id', idParam('Agent'))`, or with the id's prefix
 * `idParam('Campaign', CampaignId)`. A malformed id names nothing, so it is the 404 NOT_FOUND
 * "<Resource> not found" of an unknown one, answered here without asking a service.
 */
export function idParam(resource: string, kind?: PrefixedId): PipeTransform<unknown, string> {
  const wellFormed = kind ? kind.is : isUuid;
  return {
    transform(value: unknown): string {
      if (!wellFormed(value)) throw AppError.notFound(resource);
      return value;
    },
  };
}

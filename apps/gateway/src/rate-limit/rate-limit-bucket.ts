import { SetMetadata } from '@nestjs/common';

/** Per-key limits of partner routes: `calls` for the /calls routes, `general` for every other. */
export type KeyBucket = 'general' | 'calls';

export const RATE_LIMIT_BUCKET = 'vap:rate-limit-bucket';

/**
 * The limit a controller's routes count against. Read from the route the router matched rather than from
 * the URL, so it holds for every spelling the router accepts (any letter case, a trailing slash).
 */
export const RateLimitBucket = (bucket: KeyBucket) => SetMetadata(RATE_LIMIT_BUCKET, bucket);

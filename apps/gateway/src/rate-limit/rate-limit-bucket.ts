import { SetMetadata } from '@nestjs/common';

/** Per-key limits of partner routes: `calls` for the /calls routes, `general` for every other. */
export type KeyBucket = 'general' | 'calls';

/**
 * Per-client-address limits of the routes without an API key: the operator API, carrier callbacks,
 * signed blob URLs, the console's sign-in and one-time links; `invalid_key` counts partner requests whose
 * key is missing or wrong.
 */
export type AddressBucket = 'admin' | 'callbacks' | 'uploads' | 'console' | 'invalid_key';

export const RATE_LIMIT_BUCKET = 'vap:rate-limit-bucket';

/**
 * The limit a controller's routes count against. Read from the route the router matched rather than from
 * the URL, so it holds for every spelling the router accepts (any letter case, a trailing slash).
 */
export const RateLimitBucket = (bucket: KeyBucket | Exclude<AddressBucket, 'invalid_key'>) =>
  SetMetadata(RATE_LIMIT_BUCKET, bucket);

export function isAddressBucket(bucket: string | undefined): bucket is AddressBucket {
  return (
    bucket === 'admin' ||
    bucket === 'callbacks' ||
    bucket === 'uploads' ||
    bucket === 'console' ||
    bucket === 'invalid_key'
  );
}

// The platform's TypeScript SDK: the code generated from the gateway's OpenAPI document (./generated, by
// `npm run sdk:generate`) and the hand-written layer on top (see docs/sdk.md).
export * from './generated';
export { createClient, createConfig, type Client, type Config } from './generated/client';
export * from './errors';
export * from './idempotency';
export * from './pagination';
export * from './retry';
export * from './vap-client';
export * from './webhooks';

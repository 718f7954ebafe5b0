/**
 * @vap/messages: what the services say to each other over NATS. Command subjects with their command map,
 * domain event subjects with their event map, the payloads of internal commands, the RPC envelope, which
 * service may send or record what (nats-access), KV buckets, message batching, and the vocabulary both these
 * and the public API use (ids, error codes, statuses and limits). Plain TypeScript: no validation or OpenAPI
 * decorators; the public HTTP schema is @vap/api, which adds the commands and events that carry public
 * records to the maps here. See README.md for the casing rule of internal payloads.
 */
export * from './ids';
export * from './errors';
export * from './auth';
export * from './pagination';
export * from './messaging';
export * from './events';
export * from './extraction';
export * from './agents';
export * from './calls';
export * from './knowledge';
export * from './voices';
export * from './voice';
export * from './integrations';
export * from './safety';

/**
 * @vap/api: the public HTTP schema. Request and response DTOs with their validation and OpenAPI
 * decorators (snake_case fields, as the API spec writes them), the success and error envelopes,
 * pagination, CSV upload rows, webhook event types and signatures, and the commands and events that carry
 * these records (added to @vap/messages' command and event maps).
 */
export * from './envelope';
export * from './pagination';
export * from './validation';
export * from './commands';
export * from './customers';
export * from './accounts';
export * from './billing';
export * from './clients';
export * from './agents';
export * from './projects';
export * from './voices';
export * from './dictionaries';
export * from './extraction';
export * from './custom-functions';
export * from './connectors';
export * from './provider-credentials';
export * from './models';
export * from './documents';
export * from './knowledge';
export * from './calls';
export * from './browser-sessions';
export * from './events';
export * from './telephony';
export * from './campaigns';
export * from './test-runs';
export * from './webhooks';
export * from './lifecycle-hooks';
export * from './csv';
export * from './contact-policy';
export * from './messages';
export * from './integrations';
export * from './console';

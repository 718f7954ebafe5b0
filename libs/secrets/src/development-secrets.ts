import { streamTokenKeyOf } from './derived-keys';
import { isSecretsKey, parseSecretsKey } from './secrets-key';

/** The operator token `npm start` uses in development. */
export const DEV_ADMIN_TOKEN = 'dev-admin-token';

/** DEVELOPMENT ONLY, NOT A SECRET: the auth token of the platform's account at the sandbox carrier. */
export const DEV_SANDBOX_AUTH_TOKEN = 'development-only-sandbox-carrier-auth-token';

/** DEVELOPMENT ONLY, NOT A SECRET: the hex of "development-only-key-do-not-use!" (32 bytes). */
export const DEV_SECRETS_KEY = Buffer.from('development-only-key-do-not-use!').toString('hex');

/**
 * Every secret value this repository has ever shipped (development defaults, example files, the
 * development overlays): public, so acceptable only with NODE_ENV=development.
 */
const PUBLISHED_SECRETS = [
  DEV_ADMIN_TOKEN,
  DEV_SECRETS_KEY,
  DEV_SANDBOX_AUTH_TOKEN,
  // Former fallbacks of docker/compose.yml and of the blob and sandbox signers.
  '7ph0zrhiRMj3sHGknfSZyc6UGAZtp3O6h2j/88KEnfc=',
  'development-only blob url signing secret; not for production',
  'development-only sandbox callback secret',
  // k8s/overlays/dev.
  'cndatGb0g+7GsGlVeX9lnmprYNC0qc6+S5p/hnKLnhU=',
  'dev-blob-signing-key-not-for-production-use-0000',
  'dev-sandbox-carrier-auth-token-not-for-production',
  'rb2YelJjIDsdlCz9IR9CyYmw/ojZZkaSopVJSsEJIy0=',
  'dev-nats-gateway-password',
  'dev-nats-agents-password',
  'dev-nats-calls-password',
  'dev-nats-campaigns-password',
  'dev-nats-webhooks-password',
  'dev-nats-voice-password',
  // Voice's development STREAM_TOKEN_KEY, derived from the development SECRETS_KEY.
  streamTokenKeyOf(DEV_SECRETS_KEY),
];

const publishedKeys = PUBLISHED_SECRETS.filter(isSecretsKey).map((k) => parseSecretsKey(k));

/** True for a published development secret, a 32-byte key compared by its bytes (hex or base64 alike). */
export function isDevelopmentSecret(raw: string): boolean {
  const value = raw.trim();
  if (PUBLISHED_SECRETS.includes(value)) return true;
  if (!isSecretsKey(value)) return false;
  const key = parseSecretsKey(value);
  return publishedKeys.some((k) => k.equals(key));
}

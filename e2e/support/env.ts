/** The platform the e2e run started, as global setup describes it through the environment. */
export interface E2eEnv {
  gatewayUrl: string;
  /** Every gateway replica, first one = gatewayUrl. */
  gatewayUrls: string[];
  adminToken: string;
  databaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  secretsKey: string;
  logDir: string;
  /** Each backend service's own base URL (health and metrics; the API is only on the gateway). */
  serviceUrls: Record<string, string>;
  /**
   * The environment every app of the run got (database, NATS, public URLs, blob storage, secrets, test scales).
   * A replica a spec adds to the run's queue groups starts from it: it serves other specs' requests too, so it
   * must be configured as the run's own replicas are (a replica without the run's BLOB_STORAGE_DIR answered
   * another spec's document confirm with "not uploaded yet").
   */
  appEnv: Record<string, string>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: run e2e specs through Jest's e2e project, whose global setup starts the platform`,
    );
  return value;
}

export function e2eEnv(): E2eEnv {
  const gatewayUrl = required('E2E_GATEWAY_URL');
  return {
    gatewayUrl,
    gatewayUrls: (process.env.E2E_GATEWAY_URLS ?? gatewayUrl).split(',').filter(Boolean),
    adminToken: required('E2E_ADMIN_TOKEN'),
    databaseUrl: required('E2E_DATABASE_URL'),
    natsUrl: required('E2E_NATS_URL'),
    natsPrefix: required('E2E_NATS_PREFIX'),
    secretsKey: required('E2E_SECRETS_KEY'),
    logDir: process.env.E2E_LOG_DIR ?? '',
    serviceUrls: Object.fromEntries(
      (process.env.E2E_SERVICE_URLS ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => pair.split('=') as [string, string]),
    ),
    appEnv: JSON.parse(required('E2E_APP_ENV')) as Record<string, string>,
  };
}

/**
 * The media clock of every platform the e2e run starts: four times faster than real time (the pacing code
 * is the same), so a sandbox conversation takes a few seconds and a call capped at 60 s about fifteen.
 */
export const E2E_MEDIA_TIME_SCALE = process.env.MEDIA_TIME_SCALE ?? '4';

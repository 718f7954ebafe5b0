import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * A throwaway self-signed certificate for 127.0.0.1, written as `cert.pem` and `key.pem` into `dir`: for the
 * HTTPS servers a benchmark runs in its own process (partners' endpoints), which the services under test
 * trust through NODE_EXTRA_CA_CERTS.
 */
export function selfSignedCertificate(dir: string): { cert: string; key: string } {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'pipe' },
  );
  return { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
}

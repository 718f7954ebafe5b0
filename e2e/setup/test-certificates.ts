import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificates {
  /** The test CA's certificate (PEM file): given to the apps as NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** A server certificate for 127.0.0.1 and localhost signed by that CA, and its key (PEM files). */
  certFile: string;
  keyFile: string;
}

/**
 * Makes a throwaway CA and a server certificate with the openssl CLI, so that tests can run HTTPS
 * receivers (webhooks only go to https URLs) that the apps trust. Returns undefined when openssl is
 * missing; tests that need HTTPS then fail with a message that says so.
 */
export function createTestCertificates(dir: string): TestCertificates | undefined {
  mkdirSync(dir, { recursive: true });
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe', cwd: dir });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    openssl('version');
  } catch {
    return undefined;
  }
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=voice-agent-platform e2e test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=localhost');
  writeFileSync(
    file('server.ext'),
    [
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
    ].join('\n'),
  );
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
  );
  return { caFile: file('ca.pem'), certFile: file('server.pem'), keyFile: file('server.key') };
}

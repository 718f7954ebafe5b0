// Why a request to a partner's endpoint failed, told so that its owner can act, for the failures that are theirs
// to fix: a certificate the platform does not trust, or an address it does not connect to. The platform reports
// them as `connection failed (<TLS code>)` and as its one "could not connect" / "refusing to connect" text.

/** Where the guide explains how a development endpoint can be reached. */
export const REACHING_DOCS = 'docs/custom-functions.md, section “Reaching your endpoint in development”';

/** Certificate errors of Node's TLS client, as a failed request's error names them. */
const CERTIFICATE_CODES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the endpoint’s certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the endpoint’s certificate chain ends in a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the endpoint’s certificate could not be traced to a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the authority that issued the endpoint’s certificate is not trusted',
  UNABLE_TO_GET_ISSUER_CERT: 'the authority that issued the endpoint’s certificate is unknown',
  CERT_HAS_EXPIRED: 'the endpoint’s certificate has expired',
  CERT_NOT_YET_VALID: 'the endpoint’s certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the endpoint’s certificate is for another host name',
  HOSTNAME_MISMATCH: 'the endpoint’s certificate is for another host name',
};

export interface FailureExplanation {
  title: string;
  advice: string;
}

/**
 * Why a request failed, told so that its owner can fix it, for the failures that are theirs to fix: an
 * untrusted certificate, or an address the platform does not connect to. Null for other errors (they read
 * well as they are).
 */
export function explainFailure(error: string | null | undefined): FailureExplanation | null {
  if (!error) return null;
  const code = Object.keys(CERTIFICATE_CODES).find((c) => error.includes(c));
  if (code)
    return {
      title: `The platform does not trust your endpoint’s certificate: ${CERTIFICATE_CODES[code]}.`,
      advice:
        'Serve the URL over HTTPS with a certificate from a public certificate authority (for example Let’s ' +
        'Encrypt), or expose your development server through a tunnel such as ngrok or cloudflared, which gives ' +
        'it a public HTTPS address with a trusted certificate.',
    };
  if (/refusing to connect|not a public address|could not connect/i.test(error))
    return {
      title:
        'The platform did not connect: the URL’s address is private (this machine, your office or home network) ' +
        'or nothing accepted the connection there.',
      advice:
        'Calls reach only public HTTPS addresses. Expose your development server through a tunnel such as ngrok ' +
        'or cloudflared and use the tunnel’s https:// address; check that the server is running and the name ' +
        'resolves. A development installation of the platform can be told to allow private addresses.',
    };
  return null;
}

import { createHmac } from 'node:crypto';
import { FormParams, sameSignature, sortedNames } from '../signing/form-params';

export const CARRIER_B_SIGNATURE_HEADER = 'x-twilio-signature';

/**
 * carrier_b's callback signature: the full URL as configured, then every POST parameter as name followed by
 * value (names sorted, repeated values in order), no separators; HMAC-SHA1 keyed with the auth token; base64.
 */
export function carrierBSignature(authToken: string, url: string, params: FormParams): string {
  let data = url;
  for (const name of sortedNames(params)) for (const value of params.get(name) ?? []) data += name + value;
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * The URL forms the carrier may have signed: as given, without an explicit default port, and with one
 * (the carrier's SDK accepts both, since proxies add or strip :443/:80).
 */
export function urlVariants(url: string): string[] {
  const parsed = new URL(url);
  const defaultPort = parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : '';
  const variants = new Set([url]);
  if (!defaultPort) return [...variants];
  const withoutPort = url.replace(
    /^(\w+:\/\/[^/?#]*?):(443|80)(?=[/?#]|$)/,
    (m, head: string, port: string) => (port === defaultPort ? head : m),
  );
  variants.add(withoutPort);
  if (!parsed.port) variants.add(withoutPort.replace(/^(\w+:\/\/[^/?#]+)/, `$1:${defaultPort}`));
  return [...variants];
}

export function verifyCarrierBSignature(
  authToken: string,
  url: string,
  params: FormParams,
  header: string | undefined,
): boolean {
  if (!header || !authToken) return false;
  // Evaluate every variant so the time taken does not reveal which URL form matched.
  return urlVariants(url)
    .map((candidate) => sameSignature(carrierBSignature(authToken, candidate, params), header))
    .reduce((any, ok) => any || ok, false);
}

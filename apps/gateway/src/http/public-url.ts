/**
 * Makes a URL a service returned relative to the gateway (the local blob driver's signed URLs) absolute,
 * on the gateway's configured public base (PUBLIC_BASE_URL): a link handed to a partner never takes its
 * scheme or host from the request, which any client writes.
 */
export function onPublicBase(publicBaseUrl: string, url: string): string {
  return url.startsWith('/') ? `${publicBaseUrl.replace(/\/+$/, '')}${url}` : url;
}

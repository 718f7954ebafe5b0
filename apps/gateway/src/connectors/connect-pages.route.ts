import { raw } from 'express';

/**
 * The hosted connect pages: `/connect/{token}` (a customer's connect link) and `/connect/oauth/callback` (where
 * authorization servers send the customer back), outside the partner API. No API key: the link's token, or the
 * callback's state, is the credential.
 */
export const CONNECT_PATH = 'connect';
export const CONNECT_CALLBACK_PATH = `/${CONNECT_PATH}/oauth/callback`;
/** The cookie binding an authorization attempt to the browser that started it (RFC 6749 §10.12). */
export const CONNECT_BINDING_COOKIE = 'vap_connect_binding';

/** Routes whose body is a browser's form post (application/x-www-form-urlencoded), not JSON. */
export const CONNECT_PAGE_ROUTES = [new RegExp(`^/${CONNECT_PATH}/`, 'i')];

/** The API key form's body: small, kept as bytes and read as a form by the page. */
export const CONNECT_FORM_BODY_LIMIT = '16kb';

export function connectFormBody() {
  return raw({ type: () => true, limit: CONNECT_FORM_BODY_LIMIT });
}

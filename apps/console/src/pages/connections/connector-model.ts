// A connector as the form edits it, made from the API's record (or empty), and the request body made from it:
// the shapes POST /connectors and PATCH /connectors/{id} accept (libs/api connector.dto.ts). The client secret is
// write-only: a read says only whether one is stored, so an edit sends it only when a new one is typed (or it is
// removed).
import type { FieldError } from '../../api.js';
import type { Pair } from '../../components/pairs.js';

export type ConnectorType = 'oauth2' | 'api_key';

export interface Connector {
  id: string;
  name: string;
  type: ConnectorType;
  oauth2: {
    authorize_url: string;
    token_url: string;
    revocation_url: string | null;
    scopes: string[];
    client_id: string;
    client_secret_set: boolean;
    token_auth_method: string;
    authorize_params: Record<string, string>;
  } | null;
  api_key: { in: 'header' | 'query'; name: string; prefix: string } | null;
  created_at: string;
  updated_at: string;
}

export const TOKEN_AUTH_METHODS: [string, string][] = [
  ['client_secret_basic', 'HTTP Basic authentication (client_secret_basic, the usual one)'],
  ['client_secret_post', 'Client id and secret in the request body (client_secret_post)'],
];

/** The API's bounds, said before sending (the API checks them again). */
export const CONNECTOR_LIMITS = { nameMax: 100, scopesMax: 50, authorizeParamsMax: 10, keyPrefixMax: 50 };

/** Parameters the platform sets on the authorization request itself. */
export const RESERVED_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
];

export interface ConnectorDraft {
  name: string;
  type: ConnectorType;
  authorize_url: string;
  token_url: string;
  revocation_url: string;
  /** Scopes separated by spaces, as OAuth servers document them. */
  scopes: string;
  client_id: string;
  /** A new secret; empty: none on create, unchanged on edit. */
  client_secret: string;
  /** Edit only: remove the stored secret (a public client, PKCE alone). */
  remove_client_secret: boolean;
  token_auth_method: string;
  authorize_params: Pair[];
  key_in: 'header' | 'query';
  key_name: string;
  key_prefix: string;
}

export function toConnectorDraft(c: Connector | null): ConnectorDraft {
  const o = c?.oauth2;
  const k = c?.api_key;
  return {
    name: c?.name ?? '',
    type: c?.type ?? 'oauth2',
    authorize_url: o?.authorize_url ?? '',
    token_url: o?.token_url ?? '',
    revocation_url: o?.revocation_url ?? '',
    scopes: (o?.scopes ?? []).join(' '),
    client_id: o?.client_id ?? '',
    client_secret: '',
    remove_client_secret: false,
    token_auth_method: o?.token_auth_method ?? 'client_secret_basic',
    authorize_params: Object.entries(o?.authorize_params ?? {}).map(([key, value]) => ({ key, value })),
    key_in: k?.in ?? 'header',
    key_name: k?.name ?? 'Authorization',
    key_prefix: k?.prefix ?? (c ? '' : 'Bearer '),
  };
}

const https = (field: string, label: string, value: string, problems: FieldError[], required: boolean) => {
  const v = value.trim();
  if (!v) {
    if (required) problems.push({ field, message: `${label} is required` });
    return;
  }
  try {
    if (new URL(v).protocol !== 'https:')
      problems.push({ field, message: `${label} must start with https://` });
  } catch {
    problems.push({ field, message: `${label} must be a full address, such as https://auth.example.com/…` });
  }
};

/**
 * The body of a create (`existing` null) or an edit, with the problems found before sending (named as the API
 * names the fields, so the messages show at them).
 */
export function toConnectorBody(
  d: ConnectorDraft,
  existing: Connector | null,
): { body: Record<string, unknown>; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const name = d.name.trim();
  if (!name) problems.push({ field: 'name', message: 'Give the connector a name your customers recognise' });
  else if (name.length > CONNECTOR_LIMITS.nameMax)
    problems.push({
      field: 'name',
      message: `The name must be at most ${CONNECTOR_LIMITS.nameMax} characters`,
    });
  const type = existing?.type ?? d.type;
  const body: Record<string, unknown> = { name };
  if (!existing) body.type = type;

  if (type === 'oauth2') {
    https('oauth2.authorize_url', 'The authorization URL', d.authorize_url, problems, true);
    https('oauth2.token_url', 'The token URL', d.token_url, problems, true);
    https('oauth2.revocation_url', 'The revocation URL', d.revocation_url, problems, false);
    const scopes = d.scopes.split(/\s+/).filter(Boolean);
    if (scopes.length > CONNECTOR_LIMITS.scopesMax)
      problems.push({ field: 'oauth2.scopes', message: `At most ${CONNECTOR_LIMITS.scopesMax} scopes` });
    if (!d.client_id.trim())
      problems.push({ field: 'oauth2.client_id', message: 'The client id is required' });
    const params: Record<string, string> = {};
    for (const p of d.authorize_params) {
      const key = p.key.trim();
      if (!key && !p.value.trim()) continue;
      if (!key) problems.push({ field: 'oauth2.authorize_params', message: 'Every parameter needs a name' });
      else if (RESERVED_PARAMS.includes(key.toLowerCase()))
        problems.push({ field: 'oauth2.authorize_params', message: `${key} is set by the platform` });
      else params[key] = p.value;
    }
    if (Object.keys(params).length > CONNECTOR_LIMITS.authorizeParamsMax)
      problems.push({
        field: 'oauth2.authorize_params',
        message: `At most ${CONNECTOR_LIMITS.authorizeParamsMax} parameters`,
      });
    const oauth2: Record<string, unknown> = {
      authorize_url: d.authorize_url.trim(),
      token_url: d.token_url.trim(),
      revocation_url: d.revocation_url.trim() || null,
      scopes,
      client_id: d.client_id.trim(),
      token_auth_method: d.token_auth_method,
      authorize_params: Object.keys(params).length ? params : null,
    };
    const secret = d.client_secret.trim();
    if (secret) oauth2.client_secret = secret;
    else if (existing && d.remove_client_secret) oauth2.client_secret = null;
    body.oauth2 = oauth2;
  } else {
    const keyName = d.key_name.trim();
    if (!keyName)
      problems.push({ field: 'api_key.name', message: 'Name the header or query parameter the key goes in' });
    else if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(keyName))
      problems.push({
        field: 'api_key.name',
        message: 'A header or parameter name has no spaces or separators',
      });
    if (d.key_prefix.length > CONNECTOR_LIMITS.keyPrefixMax)
      problems.push({
        field: 'api_key.prefix',
        message: `The prefix must be at most ${CONNECTOR_LIMITS.keyPrefixMax} characters`,
      });
    body.api_key = { in: d.key_in, name: keyName, prefix: d.key_prefix };
  }
  return { body, problems };
}

/** How a connector authenticates, in a few words for the list. */
export function connectorSummary(c: Connector): string {
  if (c.type === 'api_key' && c.api_key)
    return `API key in the ${c.api_key.in === 'header' ? 'header' : 'query parameter'} ${c.api_key.name}`;
  if (c.oauth2) {
    let host = c.oauth2.authorize_url;
    try {
      host = new URL(c.oauth2.authorize_url).host;
    } catch {
      // Shown as stored.
    }
    return `OAuth 2.0 at ${host}`;
  }
  return c.type;
}

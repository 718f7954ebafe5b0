import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import {
  ERROR_CODE_DESCRIPTIONS,
  ErrorCode,
  READ_ONLY_SCOPE,
  SCOPE_RESOURCE_DESCRIPTIONS,
  SCOPE_RESOURCES,
  statusOf,
} from '@vap/messages';
import { documentGatewayFailures } from './openapi-gateway-failures';
import { exactNullables } from './openapi-nullable';
import { closeRequestBodies } from './openapi-request-bodies';
import { documentRequiredScopes } from './openapi-scopes';

export const API_PREFIX = 'api/v2';
export const DOCS_PATH = `${API_PREFIX}/docs`;
export const OPENAPI_JSON_PATH = `${API_PREFIX}/openapi.json`;

const ERROR_TABLE = Object.values(ErrorCode)
  .map(
    (c) =>
      `| ${c} | ${c === ErrorCode.INTERNAL_ERROR ? '500 / 502' : statusOf(c)} | ${ERROR_CODE_DESCRIPTIONS[c]} |`,
  )
  .join('\n');

const SCOPE_TABLE = SCOPE_RESOURCES.map(
  (r) => `| \`${r}:read\`, \`${r}:write\` | ${SCOPE_RESOURCE_DESCRIPTIONS[r]} |`,
).join('\n');

const DESCRIPTION = `
Multi-tenant voice-agent platform, API version 2.0.

**Authentication.** Every partner route needs \`Authorization: Bearer rg_live_...\`. Keys are shown once at
creation and stored hashed; a key in a query parameter or body is not accepted. A resource of another
account answers 404.

**Scopes.** A key may be limited to scopes (given when it is created); a key without scopes has full
access. GET needs \`<resource>:read\`, other methods \`<resource>:write\` (which includes the read);
\`${READ_ONLY_SCOPE}\` grants every \`:read\`. Each operation names its scope (\`x-required-scope\`; null:
full access only). A key without the scope gets 403 FORBIDDEN naming it.

| Scopes | Routes |
|---|---|
${SCOPE_TABLE}

**Envelope.** Success: \`{ "success": true, "data": {...} }\`. Failure: \`{ "success": false, "error":
{ "code", "message", "details"?, "retry_at"?, "request_id"? } }\`. \`retry_at\` (with a \`Retry-After\` header)
comes with refusals that lift at a known time: OUTSIDE_CALLING_WINDOW, FREQUENCY_CAP_REACHED and SMS_LIMIT_REACHED
(the daily cap).

**Rate limits** per API key: 60 requests/minute, 10/minute under \`/calls\`. Over the limit: 429
RATE_LIMITED with \`Retry-After\`.

**Request ids.** Send \`X-Request-Id\` (1..128 of \`[A-Za-z0-9._:-]\`) or get one; it is echoed on every response.

**Pagination.** List routes take \`limit\` (1..100, default 20) and \`cursor\`, and return \`next_cursor\`
(null on the last page).

| Error code | HTTP | Meaning |
|---|---|---|
${ERROR_TABLE}
`;

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Voice Agent Platform API')
    .setVersion('2.0')
    .setDescription(DESCRIPTION)
    .addServer('/', 'This gateway')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Partner API key rg_live_...' }, 'api_key')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Operator token (ADMIN_API_TOKEN)' },
      'admin_token',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description:
          'Publishable key pk_live_..., from a web page: POST /web/sessions only (see its description)',
      },
      'publishable_key',
    )
    .addCookieAuth(
      'vap_console',
      {
        type: 'apiKey',
        in: 'cookie',
        description:
          'Partner console session (POST /console/api/session). Requests that change something also send ' +
          'X-CSRF-Token. The public routes are served to the console under /console/api/v2 with the same session.',
      },
      'console_session',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  return closeRequestBodies(documentGatewayFailures(documentRequiredScopes(exactNullables(document))));
}

export function setupApiDocs(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
    customSiteTitle: 'Voice Agent Platform API v2',
  });
}

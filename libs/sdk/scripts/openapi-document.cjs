// Builds the gateway's OpenAPI document from the built gateway (dist/apps/gateway), exactly as the running
// gateway builds the one it serves at /api/v2/openapi.json (buildOpenApiDocument on the app module), but
// without the platform: Nest's preview mode reads the controllers' metadata and instantiates no provider, so
// nothing connects to Postgres or NATS. The settings are the fixed development ones, never the caller's
// environment, so every machine builds the same document.
const { existsSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const GATEWAY_DIST = path.join(ROOT, 'dist', 'apps', 'gateway');

function builtModule(relative) {
  const file = path.join(GATEWAY_DIST, relative);
  if (!existsSync(file)) {
    throw new Error(
      `${path.relative(ROOT, file)} is missing: build the gateway first (npx nx build gateway)`,
    );
  }
  return require(file);
}

/** The OpenAPI document the built gateway serves. */
async function buildOpenApiDocument() {
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { validateConfigs, withServiceConfigs } = builtModule('libs/runtime/src/index.js');
  const { BlobStorageConfig } = builtModule('libs/storage/src/index.js');
  const { AppModule } = builtModule('apps/gateway/src/app.module.js');
  const { GatewayConfig } = builtModule('apps/gateway/src/config/gateway.config.js');
  const apiDocs = builtModule('apps/gateway/src/http/api-docs.js');
  const configs = validateConfigs([GatewayConfig, BlobStorageConfig], { NODE_ENV: 'development' });
  const app = await NestFactory.create(
    withServiceConfigs(AppModule.forRoot(configs.get(GatewayConfig), configs), configs),
    { preview: true, logger: false, abortOnError: false },
  );
  try {
    return apiDocs.buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

module.exports = { buildOpenApiDocument, GATEWAY_DIST };

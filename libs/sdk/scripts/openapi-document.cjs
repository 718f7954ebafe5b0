// Builds the gateway's OpenAPI document from the built gateway (dist/apps/gateway), the way the running
// gateway builds the one it serves at /api/v2/openapi.json (buildOpenApiDocument on its app module), but
// without the platform: the gateway's own service definition is taken from its main.js (so its module and
// settings classes are the ones it boots with), and the app is created in Nest's preview mode, which reads the
// controllers' metadata and instantiates no provider, so nothing connects to Postgres or NATS. The settings
// are the fixed development ones, never the caller's environment, so every machine builds the same document.
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

let definition;

/** The ServiceDefinition the gateway's main.js hands to bootstrapService, caught instead of booted. */
function gatewayDefinition() {
  if (definition) return definition;
  const bootstrap = builtModule('libs/runtime/src/bootstrap.js');
  const boot = bootstrap.bootstrapService;
  bootstrap.bootstrapService = (def) => {
    definition = def;
    return Promise.resolve(undefined);
  };
  try {
    builtModule('apps/gateway/src/main.js');
  } finally {
    bootstrap.bootstrapService = boot;
  }
  if (!definition) throw new Error('the gateway main.js did not call bootstrapService');
  return definition;
}

/** The OpenAPI document the built gateway serves. */
async function buildOpenApiDocument() {
  const { NestFactory } = require('@nestjs/core');
  const def = gatewayDefinition();
  const { validateConfigs, withServiceConfigs } = builtModule('libs/runtime/src/index.js');
  const { buildOpenApiDocument: build } = builtModule('apps/gateway/src/http/api-docs.js');
  const configs = validateConfigs([def.configClass, ...(def.settings ?? [])], { NODE_ENV: 'development' });
  const app = await NestFactory.create(
    withServiceConfigs(def.module(configs.get(def.configClass), configs), configs),
    {
      preview: true,
      logger: false,
      abortOnError: false,
    },
  );
  try {
    return build(app);
  } finally {
    await app.close();
  }
}

module.exports = { buildOpenApiDocument, GATEWAY_DIST };

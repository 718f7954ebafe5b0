import 'reflect-metadata';
import { createValidationPipe } from '@vap/messaging';
import { bootstrapService } from '@vap/runtime';
import { BlobStorageConfig } from '@vap/storage';
import { AppModule } from './app.module';
import { GatewayConfig } from './config/gateway.config';
import { gatewayDataSourceOptions } from './database/data-source';
import { setupApiDocs } from './http/api-docs';
import { boundUnreadBodies, exceptPaths, jsonOnly, refuseDeclaredOversize } from './http/body-parsers';
import { bodyLimitOf } from './http/body-parsers.guard';
import { refuseUnsafeInput } from './http/input-rules';
import { envelopeClientErrors } from './http/client-errors';
import { keepConnectionsOpenLongerThanClients } from './http/keep-alive';
import { CALLBACK_ROUTES } from './callbacks/callbacks.route';
import { CONNECT_PAGE_ROUTES } from './connectors/connect-pages.route';
import { RAW_BODY_ROUTES } from './uploads/uploads.route';
import { CSV_BODY_ROUTES, csvBodyTypes } from './http/csv-body.route';
import { CONSOLE_PATH, consoleWeb } from './console-web/console-web';
import { consoleApiMirror } from './console/console-auth';

void bootstrapService({
  name: 'gateway',
  configClass: GatewayConfig,
  settings: [BlobStorageConfig],
  module: (config, configs) => AppModule.forRoot(config, configs),
  dataSource: gatewayDataSourceOptions,
  port: (config) => config.PORT,
  configure: (app, config) => {
    // Forwarded headers (X-Forwarded-For, -Proto, -Host) are believed only from the configured proxies.
    app.set('trust proxy', config.TRUST_PROXY_HOPS);
    // The partner console's files and pages; its API under /console/api is routed like every other, and the
    // public API's routes reach it under /console/api/v2 (rewritten to /api/v2 before anything else sees them).
    app.use(consoleApiMirror);
    app.use(CONSOLE_PATH, consoleWeb({ mediaPublicUrl: config.MEDIA_PUBLIC_URL }));
    envelopeClientErrors(app.getHttpServer());
    keepConnectionsOpenLongerThanClients(app.getHttpServer());
    // Before routing only headers are looked at: a declared body over its route's limit is refused at once,
    // and a body of a type its route does not take is marked (415 once routed). Bodies are read and parsed by
    // BodyParsersGuard, the last guard: after authentication and rate limiting.
    app.use(boundUnreadBodies());
    app.use(refuseDeclaredOversize(bodyLimitOf(config.BODY_LIMIT)));
    app.use(
      exceptPaths(
        [...RAW_BODY_ROUTES, ...CALLBACK_ROUTES, ...CONNECT_PAGE_ROUTES, ...CSV_BODY_ROUTES],
        jsonOnly(),
      ),
    );
    app.use(csvBodyTypes());
    // NUL characters in the path or the query are a 400 here rather than a 500 later (the body's: once parsed).
    app.use(refuseUnsafeInput());
    app.useGlobalPipes(createValidationPipe());
    setupApiDocs(app);
  },
});

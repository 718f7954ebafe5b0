import 'reflect-metadata';
import { createValidationPipe } from '@vap/messaging';
import { bootstrapService } from '@vap/runtime';
import { BlobStorageConfig } from '@vap/storage';
import { AppModule } from './app.module';
import { GatewayConfig } from './config/gateway.config';
import { gatewayDataSourceOptions } from './database/data-source';
import { setupApiDocs } from './http/api-docs';
import { exceptPaths, jsonBody, jsonOnly } from './http/body-parsers';
import { refuseUnsafeInput } from './http/input-rules';
import { envelopeClientErrors } from './http/client-errors';
import { CALLBACK_ROUTES, CALLBACKS_PATH, rawCallbackBody } from './callbacks/callbacks.route';
import { RAW_BODY_ROUTES } from './uploads/uploads.route';
import { CSV_BODY_ROUTES, csvBody } from './http/csv-body.route';
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
    app.set('trust proxy', true);
    // The partner console's files and pages; its API under /console/api is routed like every other, and the
    // public API's routes reach it under /console/api/v2 (rewritten to /api/v2 before anything else sees them).
    app.use(consoleApiMirror);
    app.use(CONSOLE_PATH, consoleWeb());
    envelopeClientErrors(app.getHttpServer());
    // Signed upload URLs take the file itself as the body; every other route takes JSON.
    // Carrier callbacks keep their raw bytes (form posts, signed) for the calls service to verify.
    app.use(`/${CALLBACKS_PATH}`, rawCallbackBody(config.BODY_LIMIT));
    // The contacts upload and the do-not-call import also take text/csv, and only they (see CSV_BODY_ROUTES).
    app.use(exceptPaths([...RAW_BODY_ROUTES, ...CALLBACK_ROUTES, ...CSV_BODY_ROUTES], jsonOnly()));
    app.use(csvBody());
    app.use(exceptPaths([...RAW_BODY_ROUTES, ...CALLBACK_ROUTES], jsonBody(config.BODY_LIMIT)));
    // NUL characters and unbounded nesting, in any field of any route, are a 400 here rather than a 500 later.
    app.use(refuseUnsafeInput());
    app.useGlobalPipes(createValidationPipe());
    setupApiDocs(app);
  },
});

import 'reflect-metadata';
import { bootstrapService } from '@vap/runtime';
import { AppModule } from './app.module';
import { GatewayConfig } from './config/gateway.config';
import { gatewayDataSourceOptions } from './database/data-source';
import { setupApiDocs } from './http/api-docs';
import { jsonBody, jsonOnly } from './http/body-parsers';
import { createValidationPipe } from './http/validation';

void bootstrapService({
  name: 'gateway',
  configClass: GatewayConfig,
  module: (config) => AppModule.forRoot(config),
  dataSource: gatewayDataSourceOptions,
  port: (config) => config.PORT,
  configure: (app, config) => {
    app.set('trust proxy', true);
    app.use(jsonOnly());
    app.use(jsonBody(config.BODY_LIMIT));
    app.useGlobalPipes(createValidationPipe());
    setupApiDocs(app);
  },
});

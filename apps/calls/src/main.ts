import 'reflect-metadata';
import { bootstrapService } from '@vap/runtime';
import { BlobStorageConfig } from '@vap/storage';
import { TelephonyConfig } from './config/telephony.config';
import { AppModule } from './app.module';
import { CallsConfig } from './config/calls.config';
import { callsDataSourceOptions } from './database/data-source';

void bootstrapService({
  name: 'calls',
  configClass: CallsConfig,
  settings: [TelephonyConfig, BlobStorageConfig],
  module: (config, configs) => AppModule.forRoot(config, configs),
  dataSource: callsDataSourceOptions,
  port: (config) => config.PORT,
});

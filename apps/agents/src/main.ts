import 'reflect-metadata';
import { bootstrapService } from '@vap/runtime';
import { AppModule } from './app.module';
import { AgentsConfig } from './config/agents.config';
import { agentsDataSourceOptions } from './database/data-source';

void bootstrapService({
  name: 'agents',
  configClass: AgentsConfig,
  module: (config) => AppModule.forRoot(config),
  dataSource: agentsDataSourceOptions,
  port: (config) => config.PORT,
});

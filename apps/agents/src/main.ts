import 'reflect-metadata';
import { bootstrapService } from '@vap/runtime';
import { BlobStorageConfig } from '@vap/storage';
import { KnowledgeConfig } from './config/knowledge.config';
import { CustomFunctionsConfig } from './config/custom-functions.config';
import { SpeechConfig } from './config/speech.config';
import { ModelsConfig } from './config/models.config';
import { AppModule } from './app.module';
import { AgentsConfig } from './config/agents.config';
import { agentsDataSourceOptions } from './database/data-source';

void bootstrapService({
  name: 'agents',
  configClass: AgentsConfig,
  settings: [BlobStorageConfig, KnowledgeConfig, CustomFunctionsConfig, SpeechConfig, ModelsConfig],
  module: (config, configs) => AppModule.forRoot(config, configs),
  dataSource: agentsDataSourceOptions,
  port: (config) => config.PORT,
});

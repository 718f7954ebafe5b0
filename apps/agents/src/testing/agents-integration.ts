// The agents service as an integration spec starts it (IntegrationApp): its own module, configs and schema.
import { randomBytes } from 'node:crypto';
import { BlobStorageConfig } from '@vap/storage';
import { CustomFunctionsConfig } from '../config/custom-functions.config';
import { KnowledgeConfig } from '../config/knowledge.config';
import { ModelsConfig } from '../config/models.config';
import { SpeechConfig } from '../config/speech.config';
import { IntegrationApp, IntegrationAppDefinition, IntegrationAppOptions } from '@vap/testing/integration';
import { AppModule } from '../app.module';
import { AgentsConfig } from '../config/agents.config';
import { agentsDataSourceOptions } from '../database/data-source';

export const agentsService: IntegrationAppDefinition<AgentsConfig> = {
  name: 'agents',
  configClass: AgentsConfig,
  settings: [BlobStorageConfig, KnowledgeConfig, CustomFunctionsConfig, SpeechConfig, ModelsConfig],
  module: (config, configs) => AppModule.forRoot(config, configs),
  dataSource: agentsDataSourceOptions,
  env: {
    SECRETS_KEY: randomBytes(32).toString('hex'),
  },
};

export const startAgents = (options?: IntegrationAppOptions): Promise<IntegrationApp<AgentsConfig>> =>
  IntegrationApp.start(agentsService, options);

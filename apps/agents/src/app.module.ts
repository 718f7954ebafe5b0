import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules, ValidatedConfigs } from '@vap/runtime';
import { BlobStorageConfig, BlobStorageModule } from '@vap/storage';
import { AgentsConfig } from './config/agents.config';
import { agentsDataSourceOptions } from './database/data-source';
import { AgentsModule } from './agents/agents.module';
import { ExtractionModule } from './extraction/extraction.module';
import { ProjectsModule } from './projects/projects.module';
import { DictionariesModule } from './dictionaries/dictionaries.module';
import { VoicesModule } from './voices/voices.module';
import { ProviderCredentialsModule } from './provider-credentials/provider-credentials.module';
import { DocumentsModule } from './documents/documents.module';
import { KnowledgeModule } from './knowledge/knowledge.module';
import { IntegrationLogsModule } from './integration-logs/integration-logs.module';
import { CustomFunctionsModule } from './custom-functions/custom-functions.module';
import { ConnectorsModule } from './connectors/connectors.module';

@Module({})
export class AppModule {
  static forRoot(config: AgentsConfig, configs: ValidatedConfigs): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceCoreModules('agents', config, agentsDataSourceOptions(config)),
        ProjectsModule,
        ProviderCredentialsModule,
        VoicesModule,
        DictionariesModule,
        AgentsModule,
        ExtractionModule,
        // Documents are stored where the gateway serves their signed upload URLs (see BlobStorageConfig).
        BlobStorageModule.forRoot(configs.get(BlobStorageConfig)),
        KnowledgeModule,
        DocumentsModule,
        IntegrationLogsModule,
        ConnectorsModule,
        CustomFunctionsModule,
      ],
    };
  }
}

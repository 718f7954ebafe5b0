import { DynamicModule, Module } from '@nestjs/common';
import { loadConfigOrExit, serviceCoreModules } from '@vap/runtime';
import { BlobStorageConfig, BlobStorageModule } from '@vap/storage';
import { AgentsConfig } from './config/agents.config';
import { agentsDataSourceOptions } from './database/data-source';
import { AgentsModule } from './agents/agents.module';
import { ExtractionModule } from './extraction/extraction.module';
import { ProjectsModule } from './projects/projects.module';
import { VoicesModule } from './voices/voices.module';
import { KnowledgeConfig } from './config/knowledge.config';
import { DocumentsModule } from './documents/documents.module';
import { KnowledgeModule } from './knowledge/knowledge.module';

@Module({})
export class AppModule {
  static forRoot(config: AgentsConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceCoreModules('agents', config, agentsDataSourceOptions(config)),
        ProjectsModule,
        VoicesModule,
        AgentsModule,
        ExtractionModule,
        // Documents are stored where the gateway serves their signed upload URLs (see BlobStorageConfig).
        BlobStorageModule.forRoot(loadConfigOrExit('agents', BlobStorageConfig)),
        KnowledgeModule.forRoot(loadConfigOrExit('agents', KnowledgeConfig)),
        DocumentsModule,
      ],
      providers: [{ provide: AgentsConfig, useValue: config }],
      exports: [AgentsConfig],
    };
  }
}

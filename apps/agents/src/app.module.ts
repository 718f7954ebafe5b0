import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules } from '@vap/runtime';
import { AgentsConfig } from './config/agents.config';
import { agentsDataSourceOptions } from './database/data-source';
import { AgentsModule } from './agents/agents.module';
import { ExtractionModule } from './extraction/extraction.module';
import { ProjectsModule } from './projects/projects.module';
import { VoicesModule } from './voices/voices.module';

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
      ],
      providers: [{ provide: AgentsConfig, useValue: config }],
      exports: [AgentsConfig],
    };
  }
}

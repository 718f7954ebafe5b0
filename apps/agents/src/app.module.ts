import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules } from '@vap/runtime';
import { AgentsConfig } from './config/agents.config';
import { agentsDataSourceOptions } from './database/data-source';

@Module({})
export class AppModule {
  static forRoot(config: AgentsConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [...serviceCoreModules('agents', config, agentsDataSourceOptions(config))],
      providers: [{ provide: AgentsConfig, useValue: config }],
      exports: [AgentsConfig],
    };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules } from '@vap/runtime';
import { CallsConfig } from './config/calls.config';
import { callsDataSourceOptions } from './database/data-source';

@Module({})
export class AppModule {
  static forRoot(config: CallsConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [...serviceCoreModules('calls', config, callsDataSourceOptions(config))],
      providers: [{ provide: CallsConfig, useValue: config }],
      exports: [CallsConfig],
    };
  }
}

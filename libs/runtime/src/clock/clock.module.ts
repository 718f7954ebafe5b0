import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from './clock';
import { SystemClock } from './system-clock';

/** Provides the service's one Clock to all its modules (serviceCoreModules imports it). */
@Module({})
export class ClockModule {
  static forRoot(clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: ClockModule,
      global: true,
      providers: [{ provide: Clock, useValue: clock }],
      exports: [Clock],
    };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { collectDefaultMetrics, register } from 'prom-client';
import { MetricsController } from './metrics.controller';

@Module({})
export class MetricsModule {
  static forService(service: string): DynamicModule {
    register.setDefaultLabels({ service });
    // Process metrics (CPU, memory, event-loop lag, GC) once per process.
    if (!register.getSingleMetric('process_cpu_user_seconds_total')) collectDefaultMetrics();
    return { module: MetricsModule, controllers: [MetricsController] };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { ValidatedConfigs } from './validate-config';

@Module({})
class ServiceConfigModule {}

@Module({})
class ServiceModule {}

/** Provides every validated config instance, each under its class, to every module of the service. */
export function serviceConfigModule(configs: ValidatedConfigs): DynamicModule {
  const classes = configs.classes();
  return {
    module: ServiceConfigModule,
    global: true,
    providers: classes.map((cls) => ({ provide: cls, useValue: configs.get(cls) })),
    exports: classes,
  };
}

/** A service's root module: its app module, with every validated config provided to all its modules. */
export function withServiceConfigs(appModule: DynamicModule, configs: ValidatedConfigs): DynamicModule {
  return { module: ServiceModule, imports: [serviceConfigModule(configs), appModule] };
}

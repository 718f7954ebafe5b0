export * from './config/base.config';
export * from './config/validate-config';
export * from './logging/logger.module';
export * from './logging/request-id.middleware';
export * from './health/health.module';
export * from './health/health.options';
export * from './bootstrap';
export * from './service-core.module';

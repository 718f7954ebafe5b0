export * from './lifecycle-hook.dto';
export * from './lifecycle-hook-request';

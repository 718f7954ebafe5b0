import { Module } from '@nestjs/common';
import { LifecycleHooksController } from './lifecycle-hooks.controller';

@Module({ controllers: [LifecycleHooksController] })
export class LifecycleHooksModule {}

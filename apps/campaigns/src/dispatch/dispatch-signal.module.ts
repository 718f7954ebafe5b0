import { Module } from '@nestjs/common';
import { DispatchSignal } from './dispatch-signal';

@Module({ providers: [DispatchSignal], exports: [DispatchSignal] })
export class DispatchSignalModule {}

import { Module } from '@nestjs/common';
import { VoiceConfigurationsController } from './voice-configurations.controller';

@Module({ controllers: [VoiceConfigurationsController] })
export class VoicesModule {}

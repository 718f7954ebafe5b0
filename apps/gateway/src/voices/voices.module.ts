import { Module } from '@nestjs/common';
import { VoiceCatalogAdminController } from './voice-catalog-admin.controller';
import { VoiceConfigurationsController } from './voice-configurations.controller';

@Module({ controllers: [VoiceConfigurationsController, VoiceCatalogAdminController] })
export class VoicesModule {}

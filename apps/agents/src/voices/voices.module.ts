import { Module } from '@nestjs/common';
import { CatalogVoicesHandlers } from './catalog-voices.handlers';
import { CatalogVoicesService } from './catalog-voices.service';
import { VoicePreviewService } from './voice-preview.service';
import { VoicesHandlers } from './voices.handlers';
import { VoicesService } from './voices.service';

@Module({
  controllers: [VoicesHandlers, CatalogVoicesHandlers],
  providers: [VoicesService, CatalogVoicesService, VoicePreviewService],
  exports: [VoicesService],
})
export class VoicesModule {}

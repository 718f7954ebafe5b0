import { Module } from '@nestjs/common';
import { ProviderCredentialsModule } from '../provider-credentials/provider-credentials.module';
import { CatalogVoicesHandlers } from './catalog-voices.handlers';
import { CatalogVoicesService } from './catalog-voices.service';
import { VoicePreviewService } from './voice-preview.service';
import { VoicesHandlers } from './voices.handlers';
import { VoicesService } from './voices.service';

@Module({
  imports: [ProviderCredentialsModule],
  controllers: [VoicesHandlers, CatalogVoicesHandlers],
  providers: [VoicesService, CatalogVoicesService, VoicePreviewService],
  exports: [VoicesService],
})
export class VoicesModule {}

import { Module } from '@nestjs/common';
import { ProviderCredentialsModule } from '../provider-credentials/provider-credentials.module';
import { VoicesHandlers } from './voices.handlers';
import { VoicesService } from './voices.service';

@Module({
  imports: [ProviderCredentialsModule],
  controllers: [VoicesHandlers],
  providers: [VoicesService],
  exports: [VoicesService],
})
export class VoicesModule {}

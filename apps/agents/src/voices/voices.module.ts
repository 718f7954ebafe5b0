import { Module } from '@nestjs/common';
import { VoicesHandlers } from './voices.handlers';
import { VoicesService } from './voices.service';

@Module({
  controllers: [VoicesHandlers],
  providers: [VoicesService],
  exports: [VoicesService],
})
export class VoicesModule {}

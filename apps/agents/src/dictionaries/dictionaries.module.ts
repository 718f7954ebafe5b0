import { Module } from '@nestjs/common';
import { DictionariesHandlers } from './dictionaries.handlers';
import { DictionariesService } from './dictionaries.service';

@Module({
  controllers: [DictionariesHandlers],
  providers: [DictionariesService],
  exports: [DictionariesService],
})
export class DictionariesModule {}

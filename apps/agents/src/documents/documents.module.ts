import { Module } from '@nestjs/common';
import { DocumentsHandlers } from './documents.handlers';
import { DocumentsService } from './documents.service';

@Module({
  controllers: [DocumentsHandlers],
  providers: [DocumentsService],
})
export class DocumentsModule {}

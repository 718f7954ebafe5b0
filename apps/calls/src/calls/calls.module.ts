import { Module } from '@nestjs/common';
import { RecordingModule } from '../recording/recording.module';
import { CallsHandlers } from './calls.handlers';
import { CallsQueryService } from './calls-query.service';

/** The call record every stage writes (calls and their sessions), and its reads. */
@Module({
  imports: [RecordingModule],
  controllers: [CallsHandlers],
  providers: [CallsQueryService],
  exports: [CallsQueryService],
})
export class CallsModule {}

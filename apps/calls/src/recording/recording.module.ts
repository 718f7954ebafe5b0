import { Module } from '@nestjs/common';
import { RecordingStore } from './recording-store';

/** Where call recordings are kept and how their download URLs are signed. */
@Module({
  providers: [RecordingStore],
  exports: [RecordingStore],
})
export class RecordingModule {}

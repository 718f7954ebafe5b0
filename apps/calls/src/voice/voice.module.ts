import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { MediaStreamClaims } from '../media-stream/media-stream-claims';
import { VoiceAttachService } from './voice-attach.service';
import { VoiceCallControl } from './voice-call-control.service';
import { VoiceReports } from './voice-reports.service';
import { VoiceHandlers } from './voice.handlers';

/** The calls service's side of the voice runtime: the calls.voice.* commands of the media plane. */
@Module({
  imports: [CarriersModule],
  controllers: [VoiceHandlers],
  providers: [MediaStreamClaims, VoiceAttachService, VoiceCallControl, VoiceReports],
})
export class VoiceModule {}

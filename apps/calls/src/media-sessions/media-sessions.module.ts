import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { ContactPolicyModule } from '../telephony/contact-policy/contact-policy.module';
import { MediaStreamClaims } from './media-stream-claims';
import { LostVoiceReplicaReaper } from './lost-voice-replica-reaper.service';
import { VoiceAttachService } from './voice-attach.service';
import { VoiceCallControl } from './voice-call-control.service';
import { VoiceOptOut } from './voice-opt-out.service';
import { VoiceReports } from './voice-reports.service';
import { VoiceHandlers } from './voice.handlers';

/**
 * The calls service's side of the voice runtime: the calls.voice.* commands of the media plane, and the end of
 * calls whose voice replica is gone.
 */
@Module({
  imports: [CarriersModule, ContactPolicyModule],
  controllers: [VoiceHandlers],
  providers: [
    MediaStreamClaims,
    VoiceAttachService,
    VoiceCallControl,
    VoiceReports,
    VoiceOptOut,
    LostVoiceReplicaReaper,
  ],
})
export class VoiceModule {}

import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { ProgressModule } from '../progress/progress.module';
import { RecordingModule } from '../recording/recording.module';
import { ContactPolicyModule } from '../telephony/contact-policy/contact-policy.module';
import { CallTransferService } from './call-transfer.service';
import { EndedCallFollowUp } from './ended-call-follow-up.consumer';
import { LostVoiceReplicaReaper } from './lost-voice-replica-reaper.service';
import { MediaStreamClaims } from './media-stream-claims';
import { TranscriptService } from './transcript.service';
import { VoiceAttachService } from './voice-attach.service';
import { VoiceCallControl } from './voice-call-control.service';
import { VoiceOptOut } from './voice-opt-out.service';
import { VoiceReports } from './voice-reports.service';
import { VoiceHandlers } from './voice.handlers';

/**
 * A call's live media session, as the calls service sees it: the calls.voice.* commands of the voice runtime
 * (attach, turns, transfer, hang-up, opt-out, the end), and what ends with a session or ends it: the session
 * stopped when its call ends, and the calls of a voice replica that is gone.
 */
@Module({
  imports: [CarriersModule, ProgressModule, RecordingModule, ContactPolicyModule],
  controllers: [VoiceHandlers],
  providers: [
    MediaStreamClaims,
    VoiceAttachService,
    VoiceCallControl,
    CallTransferService,
    VoiceReports,
    TranscriptService,
    VoiceOptOut,
    LostVoiceReplicaReaper,
    EndedCallFollowUp,
  ],
})
export class MediaSessionsModule {}

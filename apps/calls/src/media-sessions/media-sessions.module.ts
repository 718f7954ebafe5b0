import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { ProgressModule } from '../progress/progress.module';
import { RecordingModule } from '../recording/recording.module';
import { ContactPolicyModule } from '../telephony/contact-policy/contact-policy.module';
import { TranscriptService } from './transcript.service';
import { VOICE_COMMAND_USE_CASES } from './usecases';
import { EndedCallFollowUp } from './usecases/follow-up-ended-call/ended-call-follow-up.consumer';
import { LostVoiceReplicaReaper } from './usecases/reap-lost-voice-replica/lost-voice-replica-reaper.service';
import { VoiceHandlers } from './voice.handlers';

/**
 * A call's live media session, as the calls service sees it: the calls.voice.* commands of the voice runtime
 * (attach, turns, transfer, hang-up, opt-out, the end), one use case each under usecases/, and what ends with a
 * session or ends it: the session stopped when its call ends, and the calls of a voice replica that is gone.
 */
@Module({
  imports: [CarriersModule, ProgressModule, RecordingModule, ContactPolicyModule],
  controllers: [VoiceHandlers],
  providers: [TranscriptService, ...VOICE_COMMAND_USE_CASES, LostVoiceReplicaReaper, EndedCallFollowUp],
})
export class MediaSessionsModule {}

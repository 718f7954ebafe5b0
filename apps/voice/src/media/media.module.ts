import { DynamicModule, Module } from '@nestjs/common';
import { ReplicaDrain } from '../drain/replica-drain';
import { ReplicaHeartbeat } from '../drain/replica-heartbeat';
import { LiveSessions } from './live-sessions';
import { LocalSpeechStatus } from './local-speech-status';
import { MediaGateway } from './media-gateway.service';
import { ReplicaCapacity } from './replica-capacity';
import { SessionCommands } from './session-commands';

/**
 * Carriers' media streams: admission, sessions, a held session's commands (end it, a late machine answer),
 * the replica's heartbeat, drain. Needs VoiceConfig, RpcClient, AddressedCommandServer and BLOB_STORAGE from the
 * app; `drain` is the replica's drain state and `capacity` its MAX_LIVE_SESSIONS places, which readiness reads too, and `localSpeech` whether local speech runs here.
 */
@Module({})
export class MediaModule {
  static forRoot(
    drain: ReplicaDrain,
    capacity: ReplicaCapacity,
    localSpeech = new LocalSpeechStatus(),
  ): DynamicModule {
    return {
      module: MediaModule,
      providers: [
        { provide: ReplicaDrain, useValue: drain },
        ReplicaHeartbeat,
        { provide: ReplicaCapacity, useValue: capacity },
        { provide: LocalSpeechStatus, useValue: localSpeech },
        LiveSessions,
        SessionCommands,
        MediaGateway,
      ],
      exports: [ReplicaDrain, ReplicaCapacity, LiveSessions],
    };
  }
}

import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { warmOfflineSpeech } from '@vap/media';
import { RpcClient } from '@vap/messaging';
import { Clock } from '@vap/runtime';
import { BLOB_STORAGE, BlobStorage } from '@vap/storage';
import { VoiceConfig } from '../config/voice.config';
import { ReplicaDrain } from '../drain/replica-drain';
import { ReplicaHeartbeat } from '../drain/replica-heartbeat';
import { warmBackgroundAudio } from '../conversation';
import { providerNames } from '@vap/speech';
import { ConversationStarter } from '../session/conversation-starter';
import { LiveSessions } from './live-sessions';
import { LocalSpeechStatus } from './local-speech-status';
import { MediaStreamServer } from './media-stream-server';
import { ReplicaCapacity } from './replica-capacity';
import { SessionCommands } from './session-commands';
import { StreamAdmission } from './stream-admission';

/**
 * The media plane's Nest side: starts the replica's heartbeat and puts the media WebSocket server on the app's
 * HTTP server at bootstrap, and drains at shutdown (before NATS and the HTTP server close, so live calls can
 * still report): no new streams, DRAIN_DEADLINE_MS (longer than the longest call) for live calls to end by
 * themselves, then the rest are ended and reported, and the heartbeat signs off.
 */
@Injectable()
export class MediaGateway implements OnApplicationBootstrap, BeforeApplicationShutdown, OnModuleDestroy {
  private readonly logger = new Logger('MediaGateway');
  private readonly server: MediaStreamServer;
  private readonly starter: ConversationStarter;

  constructor(
    private readonly config: VoiceConfig,
    private readonly drain: ReplicaDrain,
    private readonly heartbeat: ReplicaHeartbeat,
    private readonly sessions: LiveSessions,
    private readonly http: HttpAdapterHost,
    private readonly localSpeech: LocalSpeechStatus,
    capacity: ReplicaCapacity,
    commands: SessionCommands,
    rpc: RpcClient,
    @Inject(BLOB_STORAGE) storage: BlobStorage,
    clock: Clock,
  ) {
    const log = (level: 'warn' | 'error', message: string) => this.logger[level](message);
    const starter = new ConversationStarter({ config, rpc, storage, log, localSpeech, clock });
    this.starter = starter;
    this.server = new MediaStreamServer({
      admission: new StreamAdmission({
        rpc,
        tokenKey: config.streamTokenKey,
        publicUrl: config.mediaPublicUrl,
        isDraining: () => drain.draining,
        replicaId: heartbeat.id,
        capacity,
        log,
      }),
      onAccepted: (socket, accepted) => {
        const session = starter.open(socket, accepted);
        sessions.add(session);
        void session.finished.finally(() => accepted.slot.release());
        commands.serve(session);
      },
      log,
      maxMessageBytes: config.MEDIA_MAX_MESSAGE_BYTES,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    // Once, before the first call: without its Debian packages, local speech runs on the offline engine.
    await this.localSpeech.check(this.config, (message) => this.logger.warn(message));
    // Rendering an ambience clip takes a while: do it before the first call, not inside its first frame.
    warmBackgroundAudio();
    // Likewise the offline synthesizer's helpers, before the replica listens: else the first call's intro
    // waits for them to compile flite. A failure here is not fatal; the first synthesis tries again.
    const tts = providerNames(this.config.TTS_PROVIDER);
    if (tts.includes('offline') || (tts.includes('local') && this.localSpeech.problem)) {
      await warmOfflineSpeech().catch((error: Error) =>
        this.logger.warn(`offline speech could not be warmed: ${error.message}`),
      );
    }
    // And local speech's recogniser: Python and its model take seconds on a busy machine, which would come out
    // of the first utterance's deadline. Not fatal either; the first utterance starts one again.
    await this.starter
      .warm()
      .catch((error: Error) => this.logger.warn(`local speech could not be warmed: ${error.message}`));
    // Beating before the first stream: every call attached here names a replica the calls service can check.
    await this.heartbeat.start();
    this.server.attach(this.http.httpAdapter.getHttpServer() as Server);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.drain.start();
    const live = this.sessions.size;
    if (live > 0) {
      this.logger.log(`draining: ${live} live call(s), deadline ${this.config.DRAIN_DEADLINE_MS} ms`);
    }
    const { endedAtDeadline } = await this.sessions.drain(this.config.DRAIN_DEADLINE_MS);
    if (endedAtDeadline > 0) this.logger.warn(`drain deadline: ended ${endedAtDeadline} call(s)`);
    this.server.close();
    // Every call reported its end: nothing is left for the calls service to end on this replica's behalf.
    await this.heartbeat.stop();
  }

  async onModuleDestroy(): Promise<void> {
    await this.starter.close();
  }
}

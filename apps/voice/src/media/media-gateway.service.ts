import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { warmOfflineSpeech } from '@vap/media';
import { RpcClient } from '@vap/messaging';
import { BLOB_STORAGE, BlobStorage } from '@vap/storage';
import { VoiceConfig } from '../config/voice.config';
import { ReplicaDrain } from '../drain/replica-drain';
import { warmBackgroundAudio } from '../conversation';
import { ConversationStarter } from '../session/conversation-starter';
import { LiveSessions } from './live-sessions';
import { MediaStreamServer } from './media-stream-server';
import { SessionCommands } from './session-commands';
import { StreamAdmission } from './stream-admission';

/**
 * The media plane's Nest side: puts the media WebSocket server on the app's HTTP server at bootstrap, and
 * drains at shutdown (before NATS and the HTTP server close, so live calls can still report): no new
 * streams, DRAIN_DEADLINE_MS for live calls to end by themselves, then the rest are ended and reported.
 */
@Injectable()
export class MediaGateway implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MediaGateway');
  private readonly server: MediaStreamServer;

  constructor(
    private readonly config: VoiceConfig,
    private readonly drain: ReplicaDrain,
    private readonly sessions: LiveSessions,
    private readonly http: HttpAdapterHost,
    commands: SessionCommands,
    rpc: RpcClient,
    @Inject(BLOB_STORAGE) storage: BlobStorage,
  ) {
    const log = (level: 'warn' | 'error', message: string) => this.logger[level](message);
    const starter = new ConversationStarter({ config, rpc, storage, log });
    this.server = new MediaStreamServer({
      admission: new StreamAdmission({
        rpc,
        tokenKey: config.streamTokenKey,
        publicUrl: config.mediaPublicUrl,
        isDraining: () => drain.draining,
      }),
      onAccepted: (socket, accepted) => {
        const session = starter.open(socket, accepted);
        sessions.add(session);
        commands.serve(session);
      },
      log,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    // Rendering an ambience clip takes a while: do it before the first call, not inside its first frame.
    warmBackgroundAudio();
    // Likewise the offline synthesizer's helpers, before the replica listens: else the first call's intro
    // waits for them to compile flite. A failure here is not fatal; the first synthesis tries again.
    if (this.config.TTS_PROVIDER === 'offline') {
      await warmOfflineSpeech().catch((error: Error) =>
        this.logger.warn(`offline speech could not be warmed: ${error.message}`),
      );
    }
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
  }
}

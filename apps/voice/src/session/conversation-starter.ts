import type { WebSocket } from 'ws';
import {
  Subjects,
  type AgentSnapshot,
  type ConsultContext,
  type ModelPlan,
  type VoiceCallContext,
} from '@vap/messages';
import { createChatModel } from '@vap/llm';
import type { RpcClient } from '@vap/messaging';
import type { Clock } from '@vap/runtime';
import {
  BROWSER_CALLER_DISCONNECTED,
  BROWSER_CALLER_ENDED,
  mediaStreamCodec,
  mediaStreamProtocolOf,
} from '@vap/media';
import type { BlobStorage } from '@vap/storage';
import type { VoiceConfig } from '../config/voice.config';
import {
  ConsultConversation,
  createConversation,
  dtmfRouteOf,
  type AgentModel,
  type ConversationOptions,
  type LiveConversation,
} from '../conversation';
import { createRealtimeConversation, RealtimeUnavailable, realtimeModelsOf } from '../conversation/realtime';
import { MediaSession } from '../media/media-session';
import type { AcceptedStream } from '../media/media-stream-server';
import {
  endedSessions,
  pacingMetrics,
  providerFallbacks,
  turnLatencySink,
  turnTakingSink,
} from '../metrics/voice.metrics';
import { createSpeechProviders, LocalSttProvider, type SttProvider, type TtsProvider } from '@vap/speech';
import { callSpeechOf, fetchSpeechPlan, speechNotice, type CallSpeech } from './call-speech';
import { DEFAULT_MODEL_PLAN, fetchModelPlan, modelChainOf, startsRealtime } from './call-models';
import { openRecording } from './call-recording';
import { reportEnded } from './ended-report';
import { RpcCallPlatform } from './rpc-call-platform';

/** The caller's side ended the call: a carrier's hang-up (no reason), or a browser's user. */
function callerEnded(endCallReason: string | null): boolean {
  return (
    endCallReason === null ||
    endCallReason === BROWSER_CALLER_ENDED ||
    endCallReason === BROWSER_CALLER_DISCONNECTED
  );
}

export interface ConversationStarterOptions {
  config: VoiceConfig;
  rpc: RpcClient;
  storage: BlobStorage;
  log: (level: 'warn' | 'error', message: string) => void;
  /** Why local speech cannot run here (checked at boot): `local` is then served by the offline engine. */
  localSpeech?: { problem?: string };
  /** The service's clock, which every call's media time runs on. */
  clock: Clock;
}

/**
 * Turns an accepted media stream into a running call: the session over the socket, and the conversation
 * with the agent's voice, the speech providers and chat models the settings choose (each kind in its fallback
 * order), and the platform as the call sees it (calls and agents services). Providers are made once, on the first call, and shared: each
 * call opens its own sessions.
 */
export class ConversationStarter {
  private speech?: { stt: SttProvider[]; tts: TtsProvider[] };
  private models?: AgentModel[];

  constructor(private readonly options: ConversationStarterOptions) {}

  open(socket: WebSocket, accepted: AcceptedStream): MediaSession {
    const { context } = accepted;
    if (context.consult) return this.openConsult(socket, accepted, { ...context, consult: context.consult });
    const { config, rpc, storage, log } = this.options;
    const { stream } = accepted;
    const platform = new RpcCallPlatform(rpc, context, {
      // Once per line: a calls service that is away for a while would fill the log otherwise.
      onRetry: (attempt, err) =>
        attempt === 1 &&
        log('warn', `call ${context.callId}: a transcript line is retried until delivered: ${err.message}`),
    });
    // The call's providers, made when its media starts; the end report says which ones the platform paid.
    let speech: CallSpeech | undefined;
    return new MediaSession({
      context,
      socket,
      codec: mediaStreamCodec(mediaStreamProtocolOf(stream.carrier)),
      timeScale: config.MEDIA_TIME_SCALE,
      bounds: {
        audioBurstMs: config.MEDIA_AUDIO_BURST_MS,
        pingIntervalMs: config.MEDIA_PING_INTERVAL_MS,
        inboundSilenceMs: config.MEDIA_INBOUND_SILENCE_MS,
        maxBufferedBytes: config.MEDIA_MAX_BUFFERED_BYTES,
      },
      log,
      startConversation: async (transport) => {
        const [call, plan] = await Promise.all([this.callSpeech(context), this.callModelPlan(context)]);
        speech = call;
        // A browser's page learns what hears its user, and why nothing will when it is the offline engine.
        transport.notify?.(speechNotice(call));
        const common: Omit<ConversationOptions, 'llm' | 'stt' | 'onCallerLanguage' | 'maxUtteranceMs'> = {
          context,
          voice: call.voice,
          tts: call.tts,
          platform,
          transport,
          dtmfRoute: dtmfRouteOf(mediaStreamProtocolOf(stream.carrier)),
          timeScale: config.MEDIA_TIME_SCALE,
          clock: this.options.clock,
          providerTimeoutMs: config.PROVIDER_TIMEOUT_MS,
          latency: turnLatencySink,
          turnTaking: turnTakingSink,
          pacing: pacingMetrics,
          onProviderFallback: (failure, next) => {
            providerFallbacks.inc({ kind: failure.provider, to: next });
            log('warn', `call ${context.callId}: ${failure.message}; the call goes on with ${next}`);
          },
          openRecording: () => openRecording(storage, context),
          onRecordingLost: (err) =>
            log('error', `call ${context.callId}: the recording could not be stored: ${err.message}`),
          onError: (err, what) =>
            log(
              'warn',
              `call ${context.callId}: ${what}: ${err instanceof Error ? err.message : String(err)}`,
            ),
        };
        const realtime = startsRealtime(plan) ? await this.realtimeConversation(context, plan, common) : null;
        return (
          realtime ??
          createConversation({
            ...common,
            stt: call.stt,
            onCallerLanguage: (language) => (call.callerLanguage.current = language),
            llm: this.modelChain(context, plan),
            modelsFor: (agent) => this.handoffModels(context, agent),
            maxUtteranceMs: config.MEDIA_MAX_UTTERANCE_MS,
          })
        );
      },
      hangup: (reason) => platform.hangup(reason),
      finish: async (result) => {
        try {
          await reportEnded(rpc, context, result, speech?.usage.platformPaid ?? [], {
            onRetry: (attempt, err) =>
              log(
                'warn',
                `call ${context.callId}: calls.voice.ended attempt ${attempt} failed: ${err.message}`,
              ),
          });
          endedSessions.inc({ outcome: callerEnded(result.endCallReason) ? 'caller_ended' : 'agent_ended' });
        } catch (err) {
          endedSessions.inc({ outcome: 'unreported' });
          // The calls service's stale-call sweep ends the call when this report never arrives.
          log(
            'error',
            `call ${context.callId}: calls.voice.ended was not delivered: ${(err as Error).message}`,
          );
        }
      },
    });
  }

  /**
   * A warm transfer's consult stream (the human's leg): the agent briefs the human and hears their answer, which
   * goes to the calls service as the transfer's decision. It reports no end of its own (the call is the caller's:
   * its session reports it), records nothing, and a consult that cannot start is a decline.
   */
  private openConsult(
    socket: WebSocket,
    accepted: AcceptedStream,
    context: VoiceCallContext & { consult: ConsultContext },
  ): MediaSession {
    const { config, rpc, log } = this.options;
    const decide = (accepted: boolean) =>
      rpc.request(Subjects.calls.voiceTransferDecision, context.partnerId, {
        consultId: context.callId,
        accepted,
      });
    return new MediaSession({
      context,
      socket,
      codec: mediaStreamCodec(mediaStreamProtocolOf(accepted.stream.carrier)),
      timeScale: config.MEDIA_TIME_SCALE,
      bounds: {
        audioBurstMs: config.MEDIA_AUDIO_BURST_MS,
        pingIntervalMs: config.MEDIA_PING_INTERVAL_MS,
        inboundSilenceMs: config.MEDIA_INBOUND_SILENCE_MS,
        maxBufferedBytes: config.MEDIA_MAX_BUFFERED_BYTES,
      },
      log,
      startConversation: async (transport) => {
        const speech = await this.callSpeech(context);
        return new ConsultConversation({
          context,
          voice: speech.voice,
          stt: speech.stt,
          tts: speech.tts,
          transport,
          timeScale: config.MEDIA_TIME_SCALE,
          clock: this.options.clock,
          providerTimeoutMs: config.PROVIDER_TIMEOUT_MS,
          decide,
          onError: (err, what) =>
            log(
              'warn',
              `consult ${context.callId} of call ${context.consult.callId}: ${what}: ${
                err instanceof Error ? err.message : String(err)
              }`,
            ),
        });
      },
      hangup: async () => {
        await decide(false);
      },
      finish: async () => undefined,
    });
  }

  private speechProviders(): { stt: SttProvider[]; tts: TtsProvider[] } {
    this.speech ??= createSpeechProviders(this.options.config, {
      localProblem: this.options.localSpeech?.problem,
    });
    return this.speech;
  }

  /** Readies what the deployment's providers start slowly (a local speech recogniser) before the first call. */
  async warm(): Promise<void> {
    const { stt } = this.speechProviders();
    await Promise.all(stt.map((p) => (p instanceof LocalSttProvider ? p.warm() : undefined)));
  }

  /** Ends what the providers hold beyond a call (local speech's recogniser processes). */
  async close(): Promise<void> {
    const stt = this.speech?.stt ?? [];
    await Promise.all(stt.map((p) => (p instanceof LocalSttProvider ? p.close() : undefined)));
  }

  /**
   * The call's speech from its plan. When the agents service cannot say (down, slow), the call still runs, on the
   * deployment's default providers and the offline voice in the agent's language, rather than failing.
   */
  private async callSpeech(context: VoiceCallContext): Promise<CallSpeech> {
    const defaults = this.speechProviders();
    const options = { timeoutMs: this.options.config.PROVIDER_TIMEOUT_MS, defaults };
    try {
      return callSpeechOf(context, await fetchSpeechPlan(this.options.rpc, context), options);
    } catch (err) {
      this.options.log(
        'warn',
        `call ${context.callId}: its speech plan could not be had (${(err as Error).message}); ` +
          'it runs on the default providers and the offline voice',
      );
      return callSpeechOf(context, { tts: [], stt: [], keyterms: [], pronunciations: [] }, options);
    }
  }

  /**
   * The models `agent` thinks with on this call: its plan (agents.model.plan: each model with the key that
   * answers it). An agents service that cannot say (down, slow): the deployment's default models, rather than
   * failing the call.
   */
  private async callModelPlan(context: VoiceCallContext): Promise<ModelPlan> {
    try {
      return await fetchModelPlan(this.options.rpc, context);
    } catch (err) {
      this.options.log(
        'warn',
        `call ${context.callId}: its model plan could not be had (${(err as Error).message}); ` +
          'it runs on the default model',
      );
      return DEFAULT_MODEL_PLAN;
    }
  }

  /** The chain a plan gives the call (the deployment's default models when none of its own can run). */
  private modelChain(context: VoiceCallContext, plan: ModelPlan): AgentModel[] {
    const { config, log } = this.options;
    return modelChainOf(plan, {
      timeoutMs: config.LLM_TIMEOUT_MS,
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      defaults: () => {
        if (plan.models.length)
          log(
            'warn',
            `call ${context.callId}: none of the agent's models can run; it runs on the default model`,
          );
        return this.agentModels();
      },
      onSkipped: (entry, reason) =>
        log('warn', `call ${context.callId}: model ${entry} cannot run: ${reason}`),
    });
  }

  /**
   * The models of the agent a handoff gives the call to: its own plan. Rejects when the agents service cannot
   * say (the call then stays on the models it has).
   */
  private async handoffModels(context: VoiceCallContext, agent: AgentSnapshot): Promise<AgentModel[]> {
    return this.modelChain(context, await fetchModelPlan(this.options.rpc, context, agent));
  }

  /**
   * A call whose agent is on a speech-to-speech model: the model's own session holds it. Null when none of the
   * agent's speech-to-speech models opens a session: the call then runs on the deployment's default chain.
   */
  private async realtimeConversation(
    context: VoiceCallContext,
    plan: ModelPlan,
    common: Omit<ConversationOptions, 'llm' | 'stt' | 'onCallerLanguage' | 'maxUtteranceMs'>,
  ): Promise<LiveConversation | null> {
    const { config, rpc, log } = this.options;
    const skipped = (entry: string, reason: string) =>
      log('warn', `call ${context.callId}: model ${entry} cannot run: ${reason}`);
    try {
      return await createRealtimeConversation({
        ...common,
        models: realtimeModelsOf(plan, skipped),
        // A handoff's agent brings its own models: speech-to-speech ones take the call on a new session.
        modelsFor: async (agent) => {
          const next = await fetchModelPlan(rpc, context, agent);
          return startsRealtime(next) ? realtimeModelsOf(next, skipped) : this.modelChain(context, next);
        },
        // What a session cannot write apart from the conversation (a handoff's summary, a transfer's briefing).
        textModels: this.agentModels(),
        sessionTimeoutMs: config.LLM_TIMEOUT_MS,
      });
    } catch (err) {
      if (!(err instanceof RealtimeUnavailable)) throw err;
      log('warn', `call ${context.callId}: ${err.message}; it runs on the default model`);
      return null;
    }
  }

  /** LLM_BASE_URL's model (or the offline engine), then LLM_FALLBACK_BASE_URL's when set. */
  private agentModels(): AgentModel[] {
    const config = this.options.config;
    this.models ??= [
      {
        provider: config.LLM_BASE_URL ? 'platform' : 'offline',
        model: config.LLM_BASE_URL ? config.LLM_MODEL : 'offline',
        paidBy: null,
        llm: createChatModel(config),
      },
      ...(config.LLM_FALLBACK_BASE_URL
        ? [
            {
              provider: 'platform' as const,
              model: config.LLM_FALLBACK_MODEL ?? config.LLM_MODEL,
              paidBy: null,
              llm: createChatModel({
                LLM_BASE_URL: config.LLM_FALLBACK_BASE_URL,
                LLM_API_KEY: config.LLM_FALLBACK_API_KEY,
                LLM_MODEL: config.LLM_FALLBACK_MODEL ?? config.LLM_MODEL,
                LLM_TIMEOUT_MS: config.LLM_TIMEOUT_MS,
              }),
            },
          ]
        : []),
    ];
    return this.models;
  }
}

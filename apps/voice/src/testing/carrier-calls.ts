// Calls on the voice service as a carrier places them, for its integration specs: the calls service is a typed fake
// peer (calls.voice.attach answers a call's context, every other calls.voice.* command it receives is recorded and
// acknowledged) and the carrier's side is the sandbox carrier's SimulatedPhone, speaking carrier_b's media
// protocol into the service's HTTP server with the offline callee voice.
import { randomUUID } from 'node:crypto';
import {
  AgentSnapshot,
  AppError,
  SpeechPlan,
  Subjects,
  VoiceAttachRequest,
  VoiceCallContext,
  VoiceEndedRequest,
  VoiceHangupRequest,
  VoiceToolCallRequest,
  VoiceTranscriptRequest,
} from '@vap/messages';
import { buildMediaStreamUrl, issueStreamToken, MediaStreamCarrier } from '@vap/media';
import {
  CARRIER_B_SIGNATURE_HEADER,
  CalleeScript,
  OfflineCalleeVoice,
  PhoneEnd,
  signCarrierB,
  SimulatedPhone,
  SimulatedPhoneOptions,
} from '@vap/carrier-sim';
import { waitFor } from '@vap/testing';
import { PeerHandler } from '@vap/testing/integration';
import type { IntegrationApp } from '@vap/testing/integration';
import { agentSettings } from '../conversation/testing/conversation-harness';
import type { VoiceConfig } from '../config/voice.config';

/** The carrier account the calls are placed on (the fake calls service checks no signature: its own spec does). */
const ACCOUNT_SID = 'AC_integration';
const AUTH_TOKEN = 'carrier-auth-token';
/** Stream tokens the fake calls service issues live this long, as the platform's default. */
const TOKEN_TTL_MS = 60_000;
/** An empty plan: the deployment's engines (STT_PROVIDER, TTS_PROVIDER: offline) serve the call. */
const OFFLINE_PLAN: SpeechPlan = { tts: [], stt: [], keyterms: [], pronunciations: [] };

const voice = new OfflineCalleeVoice();

export interface StreamUrlOptions {
  carrier?: MediaStreamCarrier;
  /** The token's issue time, epoch ms (default now): one issued a TTL ago is expired. */
  issuedAt?: number;
  /** A token of another call, or one that is no token at all. */
  token?: string;
}

/** One call the fake calls service knows: the context attach answers, and the streams its answer markup names. */
export class CarrierCall {
  /** What a callee script of this call threw (a failed expectation on the line). */
  readonly scriptErrors: Error[] = [];

  constructor(
    private readonly voiceApp: IntegrationApp<VoiceConfig>,
    readonly context: VoiceCallContext,
  ) {}

  get callId(): string {
    return this.context.callId;
  }

  /** A stream URL as the calls service's answer markup writes it: a fresh single-use token each time. */
  streamUrl(options: StreamUrlOptions = {}): string {
    return buildMediaStreamUrl({
      publicUrl: this.voiceApp.config.mediaPublicUrl,
      carrier: options.carrier ?? 'carrier_b',
      callId: this.callId,
      token: options.token ?? this.token(options.issuedAt),
    });
  }

  /** A token for this call, as the calls service signs one with the stream-token key. */
  token(issuedAt = Date.now()): string {
    return issueStreamToken(
      { callId: this.callId, ttlMs: TOKEN_TTL_MS, now: issuedAt },
      this.voiceApp.config.streamTokenKey,
    );
  }

  /**
   * The carrier's phone on `url` (default: a fresh stream URL), the upgrade signed as the sandbox carrier signs it;
   * `onPlayed` hears each frame its loudspeaker plays.
   */
  phone(url = this.streamUrl(), { onPlayed }: Pick<SimulatedPhoneOptions, 'onPlayed'> = {}): SimulatedPhone {
    return new SimulatedPhone({
      url,
      headers: { [CARRIER_B_SIGNATURE_HEADER]: signCarrierB(AUTH_TOKEN, url, {}) },
      callSid: `CA${this.callId.replace(/-/g, '')}`,
      accountSid: ACCOUNT_SID,
      customParameters: {},
      voice,
      timeScale: this.voiceApp.config.MEDIA_TIME_SCALE,
      onError: (err) => this.scriptErrors.push(err),
      onPlayed,
    });
  }
}

/** A phone that ran `script`, with how its side of the call ended. */
export interface PhoneRun {
  phone: SimulatedPhone;
  ended: Promise<PhoneEnd>;
}

/**
 * The calls service as the voice service meets it on a call: calls.voice.attach answers the context of a call
 * made with call() (or what attachWith() says), agents.speech.plan the offline engines, and every command the voice
 * service sends is in the app's peers' `received`, read here by call.
 */
export class CarrierCalls {
  private readonly calls = new Map<string, VoiceCallContext>();
  private attachHandler: PeerHandler<'calls.voice.attach'> | null = null;

  constructor(private readonly voiceApp: IntegrationApp<VoiceConfig>) {
    const ack = () => ({ ok: true as const });
    voiceApp.peers
      .answer(Subjects.calls.voiceAttach, (request, context) =>
        this.attachHandler ? this.attachHandler(request, context) : this.contextOf(request),
      )
      .answer(Subjects.agents.speechPlan, () => OFFLINE_PLAN)
      .answer(Subjects.calls.voiceTranscript, ack)
      .answer(Subjects.calls.voiceEnded, ack)
      .answer(Subjects.calls.voiceHangup, ack)
      .answer(Subjects.calls.voiceToolCall, ack);
  }

  /**
   * A call the calls service has placed for an agent (defaults: the conversation kit's agent), with what else its
   * context says (the call's variables, ...).
   */
  call(agent: Partial<AgentSnapshot> = {}, over: Partial<Omit<VoiceCallContext, 'agent'>> = {}): CarrierCall {
    const context: VoiceCallContext = {
      callId: randomUUID(),
      partnerId: randomUUID(),
      agentId: randomUUID(),
      sessionId: randomUUID(),
      direction: 'outbound',
      fromNumber: '+911234567890',
      toNumber: '+919876543210',
      provider: 'carrier_b',
      variables: {},
      answeredBy: null,
      ...over,
      agent: agentSettings(agent),
    };
    this.calls.set(context.callId, context);
    return new CarrierCall(this.voiceApp, context);
  }

  /** Answers calls.voice.attach with `handler` instead (a refusal the calls service decides); null restores it. */
  attachWith(handler: PeerHandler<'calls.voice.attach'> | null): void {
    this.attachHandler = handler;
  }

  /** The phone of `call` playing `script` on `url` (default: a fresh stream URL). */
  dial(call: CarrierCall, script: CalleeScript = async () => undefined, url?: string): PhoneRun {
    const phone = call.phone(url);
    return { phone, ended: phone.run(script) };
  }

  /**
   * Waits until the voice service reported an agent line containing `text` (a line is reported once it has played).
   * Specs wait on this rather than on the phone reading the line from its audio: both ends share this process's
   * event loop, and a stall of the agent's side leaves a gap in the line that the phone's reader cannot bridge.
   */
  played(call: CarrierCall, text: string, timeoutMs = 30_000): Promise<VoiceTranscriptRequest> {
    return waitFor(
      () => this.transcript(call.callId).find((l) => l.role === 'bot' && l.content.includes(text)),
      { timeoutMs, intervalMs: 20, description: `the agent line "${text}" played` },
    );
  }

  /**
   * The callee hangs up: resolves once the phone's side has ended and the voice service reported the stream ended,
   * and expects no line of the callee's script to have failed.
   */
  async hangUp(call: CarrierCall, run: PhoneRun): Promise<void> {
    run.phone.hangUp();
    await run.ended;
    await waitFor(() => this.ended(call.callId)[0], { description: 'the stream reported ended' });
    expect(call.scriptErrors).toEqual([]);
  }

  attaches(callId: string): VoiceAttachRequest[] {
    return this.sent<VoiceAttachRequest>(Subjects.calls.voiceAttach, callId);
  }

  transcript(callId: string): VoiceTranscriptRequest[] {
    return this.sent<VoiceTranscriptRequest>(Subjects.calls.voiceTranscript, callId);
  }

  ended(callId: string): VoiceEndedRequest[] {
    return this.sent<VoiceEndedRequest>(Subjects.calls.voiceEnded, callId);
  }

  toolCalls(callId: string): VoiceToolCallRequest[] {
    return this.sent<VoiceToolCallRequest>(Subjects.calls.voiceToolCall, callId);
  }

  hangups(callId: string): VoiceHangupRequest[] {
    return this.sent<VoiceHangupRequest>(Subjects.calls.voiceHangup, callId);
  }

  private contextOf(request: VoiceAttachRequest): VoiceCallContext {
    const context = this.calls.get(request.callId);
    if (!context) throw AppError.notFound('Call');
    return context;
  }

  private sent<T extends { callId: string }>(subject: string, callId: string): T[] {
    return this.voiceApp.peers.received
      .filter((r) => r.subject === subject && (r.data as T).callId === callId)
      .map((r) => r.data as T);
  }
}

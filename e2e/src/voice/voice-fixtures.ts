// A platform of the spec's own whose carriers and AI providers are the local fakes, and the steps of a live
// call through it: place the call through the gateway, ring, answer into the media stream, talk, end.
import { connect, NatsConnection, StringCodec, Subscription } from 'nats';
import { randomBytes } from 'node:crypto';
import { decodePcm16WavTracks, Pcm16Tracks } from '@vap/media';
import { BackendService, waitFor } from '@vap/testing';
import {
  adminApi,
  api,
  ApiOptions,
  CALL_SERVICES,
  e2eEnv,
  OwnPlatform,
  startOwnPlatform,
} from '../../support';
import {
  AnswerOptions,
  CallbackResult,
  CarrierAccount,
  FakeCarriers,
  PlacedCall,
  startFakeCarriers,
  Transfer,
} from '../../support/fake-carriers';
import {
  dialedNumber,
  FakeAi,
  FakeAiProviders,
  MediaStreamClient,
  startFakeAi,
} from '../../support/fake-media';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** The fallback model's name (LLM_FALLBACK_MODEL), with `llmFallback`. */
export const FAKE_FALLBACK_MODEL = 'fake-fallback-llama';

/** Media runs this much faster than real time on the platform (MEDIA_TIME_SCALE) and in the fake carriers. */
export const TIME_SCALE = 8;

export const CARRIER_A: CarrierAccount = {
  provider: 'carrier_a',
  id: 'MAFAKEVOICE000000001',
  token: 'fake-carrier-a-voice-token',
};
export const CARRIER_B: CarrierAccount = {
  provider: 'carrier_b',
  id: 'ACfakevoice000000000000000000000b1',
  token: 'fake-carrier-b-voice-token',
};
const FROM = { carrier_a: '+919812300101', carrier_b: '+14155560101' } as const;

/** A standard-tier catalog voice (azure en-IN-NeerjaNeural, model neural) seeded by the agents service. */
export const NEERJA_VOICE = '72158370-d269-49a5-ae65-8f33fe3b890b';
/**
 * A standard-tier OpenAI voice of the catalog (alloy, gpt-4o-mini-tts): what a deployment whose TTS_PROVIDER is
 * openai speaks with its own settings (an Azure voice there is spoken by the offline stand-in, never by OpenAI).
 */
export const ALLOY_VOICE = 'cb3d5f44-ded2-4986-a796-91eb40c1bc01';
export const ALLOY_PROVIDER_VOICE = 'alloy';

export type Provider = 'carrier_a' | 'carrier_b';

export interface CapturedEvent {
  subject: string;
  data: Record<string, Any>;
}

/** A transcript line as the voice service reported it to the calls service (calls.voice.transcript). */
export interface ReportedLine {
  callId: string;
  role: 'user' | 'bot';
  content: string;
  atMs: number;
  interrupted?: boolean;
  latency?: Record<string, number>;
}

/**
 * Listens to the platform's call and session events on its own subject prefix, and to the transcript lines and
 * stream ends the voice service reports (a plain subscription sees the command's requests without answering them).
 */
export class PrefixEventTap {
  readonly events: CapturedEvent[] = [];
  readonly reportedLines: ReportedLine[] = [];
  /** Calls whose media stream the voice service reported closed (calls.voice.ended), in order. */
  readonly endedStreams: string[] = [];

  private constructor(
    private readonly nc: NatsConnection,
    private readonly subs: Subscription[],
  ) {}

  static async open(prefix: string): Promise<PrefixEventTap> {
    const nc = await connect({ servers: e2eEnv().natsUrl, name: 'e2e-voice-tap' });
    const sc = StringCodec();
    const tap = new PrefixEventTap(nc, []);
    for (const subject of ['events.call.>', 'events.session.completed']) {
      tap.subs.push(
        nc.subscribe(`${prefix}.${subject}`, {
          callback: (err, msg) => {
            if (!err) tap.events.push(JSON.parse(sc.decode(msg.data)) as CapturedEvent);
          },
        }),
      );
    }
    tap.subs.push(
      nc.subscribe(`${prefix}.calls.voice.transcript`, {
        callback: (err, msg) => {
          if (!err) tap.reportedLines.push((JSON.parse(sc.decode(msg.data)) as { data: ReportedLine }).data);
        },
      }),
    );
    tap.subs.push(
      nc.subscribe(`${prefix}.calls.voice.ended`, {
        callback: (err, msg) => {
          if (!err)
            tap.endedStreams.push(
              (JSON.parse(sc.decode(msg.data)) as { data: { callId: string } }).data.callId,
            );
        },
      }),
    );
    await nc.flush();
    return tap;
  }

  of(callId: string, subject?: string): CapturedEvent[] {
    return this.events.filter(
      (e) => e.data.call_id === callId && (subject === undefined || e.subject === subject),
    );
  }

  async close(): Promise<void> {
    for (const s of this.subs) s.unsubscribe();
    await this.nc.close();
  }
}

export interface LiveCall {
  provider: Provider;
  callId: string;
  placed: PlacedCall;
  answer: CallbackResult;
  /** The carrier's side of the media stream. */
  media: MediaStreamClient;
  /** The carrier's id of the call leg (CallSid / CallUUID): what REST hang-ups and transfers name. */
  carrierId: string;
}

export interface VoiceWorldOptions {
  /** Names the platform's database, subject prefix and logs. */
  name: string;
  providers?: FakeAiProviders;
  /**
   * A second fake server, with its own key, as the agent's fallback model (LLM_FALLBACK_BASE_URL,
   * LLM_FALLBACK_API_KEY, LLM_FALLBACK_MODEL).
   */
  llmFallback?: boolean;
  /** More settings for every app (e.g. PROVIDER_TIMEOUT_MS, MEDIA_STREAM_TOKEN_TTL_MS). */
  env?: Record<string, string>;
  /** The partner's voice tier (the operator's default when absent). */
  voiceTier?: 'standard' | 'premium' | 'enterprise';
  /**
   * Model providers whose platform key and base URL (MODEL_<NAME>_API_KEY / _BASE_URL) are the fake AI server's,
   * for every tier: agents choosing their models answer on it.
   */
  platformModels?: string[];
  /**
   * The services beside the gateway (default: agents, calls and voice, all a carrier call needs): a spec that
   * uses another's routes or work (test runs, webhook deliveries, the console's pages) names it.
   */
  services?: readonly BackendService[];
}

/** The platform, its fakes and a funded partner with both carriers configured. */
export class VoiceWorld {
  /** Numbers this world dialled: a number drawn twice would meet the first call's do-not-call entry or caps. */
  private readonly dialled = new Set<string>();

  private constructor(
    readonly own: OwnPlatform,
    readonly fake: FakeCarriers,
    readonly ai: FakeAi,
    readonly tap: PrefixEventTap,
    readonly key: string,
    /** The fallback model's server, with `llmFallback`. */
    readonly aiFallback: FakeAi | null,
  ) {}

  static async start(options: VoiceWorldOptions): Promise<VoiceWorld> {
    const fake = await startFakeCarriers();
    fake.addAccount(CARRIER_A);
    fake.addAccount(CARRIER_B);
    const ai = await startFakeAi();
    const aiFallback = options.llmFallback ? await startFakeAi('fake-fallback-key-0002') : null;
    const own = await startOwnPlatform({
      name: options.name,
      services: options.services ?? CALL_SERVICES,
      env: {
        CARRIER_A_BASE_URL: fake.url,
        CARRIER_B_BASE_URL: fake.url,
        MEDIA_TIME_SCALE: String(TIME_SCALE),
        // The fake providers listen on loopback, which the voice service refuses by default.
        PROVIDER_ALLOW_PRIVATE_NETWORKS: 'true',
        ...ai.env(options.providers ?? { llm: true }),
        ...(aiFallback
          ? {
              LLM_FALLBACK_BASE_URL: aiFallback.baseUrl,
              LLM_FALLBACK_API_KEY: aiFallback.apiKey,
              LLM_FALLBACK_MODEL: FAKE_FALLBACK_MODEL,
            }
          : {}),
        ...Object.fromEntries(
          (options.platformModels ?? []).flatMap((name) => [
            [`MODEL_${name.toUpperCase()}_API_KEY`, ai.apiKey],
            [`MODEL_${name.toUpperCase()}_BASE_URL`, ai.baseUrl],
          ]),
        ),
        ...options.env,
      },
    });
    const tap = await PrefixEventTap.open(own.prefix);
    const gateway = own.platform.gatewayUrl;
    const created = await adminApi('/partners', {
      method: 'POST',
      baseUrl: gateway,
      body: {
        name: `Voice Co ${randomBytes(3).toString('hex')}`,
        balance_inr: 5000,
        concurrency_limit: 50,
        ...(options.voiceTier ? { voice_tier: options.voiceTier } : {}),
      },
    });
    if (created.status !== 200) throw new Error(`creating the partner answered ${created.status}`);
    const key = created.body.data.api_key as string;
    const world = new VoiceWorld(own, fake, ai, tap, key, aiFallback);
    const a = await world.api('/config/telephony/carrier_a', {
      method: 'PUT',
      body: { auth_id: CARRIER_A.id, auth_token: CARRIER_A.token, from_number: FROM.carrier_a },
    });
    const b = await world.api('/config/telephony/carrier_b', {
      method: 'PUT',
      body: { account_sid: CARRIER_B.id, auth_token: CARRIER_B.token, from_number: FROM.carrier_b },
    });
    if (a.status !== 200 || b.status !== 200) throw new Error('storing the carrier credentials failed');
    return world;
  }

  get gateway(): string {
    return this.own.platform.gatewayUrl;
  }

  api(path: string, options: Omit<ApiOptions, 'key' | 'baseUrl'> = {}) {
    return api(path, { ...options, key: this.key, baseUrl: this.gateway });
  }

  /** An agent with the test's fields over plain defaults (no idle prompts, no background audio). */
  async agent(overrides: Record<string, unknown> = {}): Promise<Any> {
    const res = await this.api('/agent', {
      method: 'POST',
      body: {
        agent_name: `Voice ${randomBytes(4).toString('hex')}`,
        prompt: 'You are Maya, a polite assistant for Acme. Keep answers short.',
        voice_id: NEERJA_VOICE,
        agent_type: 'outbound',
        intro_message: 'Hello, this is Maya from Acme.',
        user_idle_enabled: false,
        background_audio_id: null,
        ...overrides,
      },
    });
    if (res.status !== 200)
      throw new Error(`POST /agent answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  /** Places a call through the gateway, rings it and answers it into the media stream. */
  async dial(
    provider: Provider,
    agentId: string,
    options: AnswerOptions & { body?: Record<string, unknown> } = {},
  ): Promise<LiveCall> {
    const to = this.newCallee(provider);
    const res = await this.api('/calls/start', {
      body: { agent_id: agentId, to_number: to, from_number: FROM[provider], ...options.body },
    });
    if (res.status !== 200)
      throw new Error(`POST /calls/start answered ${res.status}: ${JSON.stringify(res.body)}`);
    const callId = res.body.data.call_id as string;
    const placed = await this.fake.waitForCall(to);
    if (provider === 'carrier_b')
      await this.fake.callbackB(placed, { CallStatus: 'ringing', SequenceNumber: '1' });
    else await this.fake.callbackA(placed, 'ring', { CallStatus: 'ringing' });
    const { answer, media } = await this.fake.answer(placed, { timeScale: TIME_SCALE, ...options });
    if (!media && options.openStream !== false) {
      throw new Error(`the answer asked for no media stream: ${answer.status} ${answer.body}`);
    }
    return { provider, callId, placed, answer, media: media!, carrierId: placed.legId };
  }

  private newCallee(provider: Provider): string {
    for (;;) {
      const to = provider === 'carrier_b' ? `+1415557${digits(4)}` : `+9198123${digits(5)}`;
      if (this.dialled.has(to)) continue;
      this.dialled.add(to);
      return to;
    }
  }

  /** The carrier's final callback: the call is over at the carrier after `seconds`. */
  async complete(call: LiveCall, seconds: number, source: 'callee' | 'api' = 'api'): Promise<void> {
    const duration = String(Math.max(1, Math.round(seconds)));
    const res =
      call.provider === 'carrier_b'
        ? await this.fake.callbackB(call.placed, {
            CallStatus: 'completed',
            CallDuration: duration,
            SequenceNumber: '9',
          })
        : await this.fake.callbackA(call.placed, 'hangup', {
            CallStatus: 'completed',
            Duration: duration,
            BillDuration: duration,
            HangupCause: 'NORMAL_CLEARING',
            HangupCauseName: 'Normal Hangup',
            HangupCauseCode: '4000',
            HangupSource: source === 'api' ? 'API Request' : 'Callee',
          });
    if (res.status !== 200) throw new Error(`the final callback answered ${res.status}: ${res.body}`);
  }

  /** Waits for the platform's hang-up through the carrier's REST API, then plays the final callback. */
  async hungUpByPlatform(call: LiveCall, timeoutMs = 30_000): Promise<void> {
    const id = call.provider === 'carrier_b' ? call.placed.providerCallId : call.placed.legId;
    await this.fake.waitForHangup(id, timeoutMs);
    await this.complete(call, call.media.mediaMs / 1000);
  }

  /**
   * Waits for the platform's cold transfer through the carrier's REST API and carries it out like the carrier:
   * carrier_b's TwiML is in the request; carrier_a's leg fetches its new XML from aleg_url, signed.
   */
  async transferred(
    call: LiveCall,
    timeoutMs = 30_000,
  ): Promise<{ transfer: Transfer; dialed: string | null }> {
    const transfer = await this.fake.waitForTransfer(call.carrierId, timeoutMs);
    if (call.provider === 'carrier_b') return { transfer, dialed: dialedNumber(transfer.twiml ?? '') };
    const xml = await this.fake.post(call.placed.account, transfer.alegUrl!, {
      CallUUID: call.placed.legId,
      ALegUUID: call.placed.legId,
      ALegRequestUUID: call.placed.providerCallId,
      From: call.placed.from,
      To: call.placed.to,
      Direction: 'outbound',
      CallStatus: 'in-progress',
    });
    if (xml.status !== 200) throw new Error(`the transfer XML answered ${xml.status}: ${xml.body}`);
    return { transfer, dialed: dialedNumber(xml.body) };
  }

  /** GET /calls/{id}. */
  async call(callId: string): Promise<Any> {
    return (await this.api(`/calls/${callId}`)).body.data;
  }

  /** The call once it is completed and its post-call processing finished. */
  async finished(callId: string, timeoutMs = 60_000): Promise<Any> {
    return waitFor(
      async () => {
        const call = await this.call(callId);
        return call?.status === 'completed' && call.session?.processing_complete ? call : undefined;
      },
      { timeoutMs, intervalMs: 250, description: `call ${callId} to complete with its session processed` },
    );
  }

  /** Waits until the call's stored transcript satisfies `predicate` (lines arrive while the call runs). */
  async transcript(
    callId: string,
    predicate: (entries: Any[]) => boolean,
    timeoutMs = 30_000,
  ): Promise<Any[]> {
    return waitFor(
      async () => {
        const entries = (await this.call(callId))?.session?.transcript ?? [];
        return predicate(entries) ? entries : undefined;
      },
      { timeoutMs, intervalMs: 250, description: `the transcript of ${callId}` },
    );
  }

  /** Downloads and reads the call's recording. */
  async recording(callId: string): Promise<Pcm16Tracks> {
    const call = await this.call(callId);
    const url = call.session?.recording_url;
    if (!url) throw new Error(`call ${callId} has no recording_url`);
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`the recording answered ${res.status}`);
    return decodePcm16WavTracks(new Uint8Array(await res.arrayBuffer()));
  }

  /** Uploads a text PDF-free document (plain text), links it to the agent and waits until it is indexed. */
  async linkDocument(agentId: string, text: string): Promise<void> {
    const bytes = Buffer.from(text, 'utf8');
    const created = await this.api('/documents', {
      body: { name: `Doc ${digits(6)}`, type: 'txt', mime_type: 'text/plain', file_size: bytes.length },
    });
    if (created.status !== 200)
      throw new Error(`POST /documents answered ${created.status}: ${JSON.stringify(created.body)}`);
    const doc = created.body.data;
    const put = await fetch(doc.upload_url, { method: 'PUT', headers: doc.upload_headers, body: bytes });
    if (put.status !== 200) throw new Error(`the upload answered ${put.status}`);
    const confirmed = await this.api(`/documents/${doc.id}/confirm`, { method: 'POST' });
    if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status}`);
    const linked = await this.api(`/agent/${agentId}/documents`, { body: { document_id: doc.id } });
    if (linked.status !== 200) throw new Error(`linking answered ${linked.status}`);
    await waitFor(
      async () => {
        const res = await this.api(`/agent/${agentId}/documents`);
        const entry = res.body?.data?.documents?.find((d: Any) => d.document_id === doc.id);
        if (entry?.index_status === 'failed') throw new Error('indexing failed');
        return entry?.index_status === 'indexed';
      },
      { timeoutMs: 30_000, intervalMs: 500, description: 'the document to be indexed' },
    );
  }

  async stop(): Promise<void> {
    await this.tap?.close().catch(() => undefined);
    await this.own?.stop();
    await this.fake?.close();
    await this.ai?.close();
    await this.aiFallback?.close();
  }
}

function digits(n: number): string {
  return Array.from(randomBytes(n), (b) => String(b % 10)).join('');
}

/** The agent lines of a transcript. */
export const botLines = (entries: Any[]): Any[] => entries.filter((e) => e.role === 'bot');
/** The caller lines of a transcript. */
export const userLines = (entries: Any[]): Any[] => entries.filter((e) => e.role === 'user');

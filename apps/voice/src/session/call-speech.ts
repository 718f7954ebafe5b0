// A call's speech, as the agent chose it and the account's keys allow: the plan the agents service resolves
// (voice and fallback voices, transcriber and its fallback, dictionary words, whose key pays), turned into the
// provider chains the conversation runs on. A plan entry with a key gets its own adapter for this call; one
// without runs on the deployment's default provider of that name, else (voices) on the stand-in: the deployment's
// local speech (eSpeak NG) where it runs it, else the offline engine. The deployment's default chain follows the
// agent's own transcribers, and its offline engine closes the voice chain, so a call is never silent while
// anything can still speak.
import {
  MAX_PLAN_KEYTERMS,
  Subjects,
  type SpeechPaidBy,
  type SpeechPlan,
  type SpeechPlanPronunciation,
  type SttPlanEntry,
  type TtsPlanEntry,
  type VoiceCallContext,
} from '@vap/messages';
import type { MediaStreamNotice } from '@vap/media';
import type { RpcClient } from '@vap/messaging';
import {
  isoLanguageOf,
  OfflineTtsProvider,
  sttCapabilities,
  ttsCapabilities,
  type SttOptions,
  type SttProvider,
  type SttSession,
  type TtsProvider,
  type TtsRequest,
  type TtsVoice,
} from '@vap/speech';
import { fallbackVoice, OFFLINE_VOICE_ID } from './agent-voice';

/**
 * Which providers served the call and who paid them: the calls service bills platform-paid speech. A provider
 * counts once it served (audio came back, a stream was accepted, a transcript came back), never for an attempt
 * it refused (a 503, a rejected key): the chain's next provider served that part instead.
 */
export class SpeechUsage {
  private readonly paid = new Set<string>();

  /** A provider served the call on a key `paidBy`. */
  used(provider: string, paidBy: SpeechPaidBy | undefined): void {
    if (paidBy === 'platform') this.paid.add(provider);
  }

  /** The synthesis, counting its provider when the first audio arrives. */
  async *served(
    provider: string,
    paidBy: SpeechPaidBy | undefined,
    audio: AsyncIterable<Int16Array>,
  ): AsyncIterable<Int16Array> {
    let counted = false;
    for await (const chunk of audio) {
      if (!counted) {
        counted = true;
        this.used(provider, paidBy);
      }
      yield chunk;
    }
  }

  /**
   * The opened session, counting its provider: a streaming session once its provider accepted the stream
   * (open resolved); one that transcribes whole utterances on request (open sends nothing) at its first
   * transcript.
   */
  async opened(
    provider: string,
    paidBy: SpeechPaidBy | undefined,
    opening: Promise<SttSession>,
  ): Promise<SttSession> {
    const session = await opening;
    if (!session.speculate) {
      this.used(provider, paidBy);
      return session;
    }
    const speculate = session.speculate.bind(session);
    const finish = session.finish.bind(session);
    const counted = (text: string) => (this.used(provider, paidBy), text);
    session.speculate = (signal) => speculate(signal).then(counted);
    session.finish = (signal) => finish(signal).then(counted);
    return session;
  }

  /** Cloud providers the platform paid for during the call, sorted. */
  get platformPaid(): string[] {
    return [...this.paid].sort();
  }
}

/** The language the caller speaks now (a spoken_languages code), which picks the voice that answers. */
export class CallerLanguage {
  constructor(public current: string) {}
}

export interface CallSpeech {
  /** The agent's own voice (the conversation's default voice). */
  voice: TtsVoice;
  stt: SttProvider[];
  tts: TtsProvider[];
  usage: SpeechUsage;
  callerLanguage: CallerLanguage;
}

export interface DefaultSpeech {
  stt: readonly SttProvider[];
  tts: readonly TtsProvider[];
}

function voiceOf(entry: TtsPlanEntry): TtsVoice {
  return {
    providerVoiceId: entry.providerVoiceId,
    model: entry.model,
    speed: entry.speed,
    volume: entry.volume,
    language: entry.language,
  };
}

/** The engines that run on the replica itself, with no key: nobody pays for them. */
const KEYLESS: ReadonlySet<string> = new Set(['offline', 'local']);

/** Who pays: the plan's key, else the deployment's own settings for a cloud provider; nobody for offline or local. */
function paidByOf(
  inner: { name: string },
  entry: { credential?: { paidBy: SpeechPaidBy } },
): SpeechPaidBy | undefined {
  if (KEYLESS.has(inner.name)) return undefined;
  return entry.credential?.paidBy ?? 'platform';
}

/** One voice of the plan on its provider: it speaks with its own voice, whatever voice the conversation holds. */
class PlannedTts implements TtsProvider {
  constructor(
    readonly inner: TtsProvider,
    readonly entry: TtsPlanEntry,
    private readonly pronunciations: readonly SpeechPlanPronunciation[],
    private readonly usage: SpeechUsage,
    private readonly voices: PlannedVoices,
  ) {}

  get name(): TtsProvider['name'] {
    return this.inner.name;
  }

  synthesize(request: TtsRequest, signal?: AbortSignal): AsyncIterable<Int16Array> {
    // The caller switched to a language this voice does not speak: another voice of the plan that does answers.
    const speaker = this.voices.forCallerLanguage(this) ?? this;
    return speaker.usage.served(
      speaker.inner.name,
      paidByOf(speaker.inner, speaker.entry),
      speaker.inner.synthesize(
        { ...request, voice: voiceOf(speaker.entry), pronunciations: speaker.pronunciations },
        signal,
      ),
    );
  }
}

/** The plan's voices, to find one that speaks the caller's current language. */
class PlannedVoices {
  readonly all: PlannedTts[] = [];

  constructor(private readonly callerLanguage: CallerLanguage) {}

  forCallerLanguage(current: PlannedTts): PlannedTts | undefined {
    const wanted = isoLanguageOf(this.callerLanguage.current);
    if (isoLanguageOf(current.entry.language) === wanted) return undefined;
    return this.all.find((v) => v !== current && isoLanguageOf(v.entry.language) === wanted);
  }
}

/** One transcriber of the plan: opens its provider with the plan's languages, model, words and options. */
class PlannedStt implements SttProvider {
  constructor(
    private readonly inner: SttProvider,
    private readonly entry: SttPlanEntry,
    private readonly keyterms: readonly string[],
    private readonly usage: SpeechUsage,
  ) {}

  get name(): SttProvider['name'] {
    return this.inner.name;
  }

  open(options: SttOptions): Promise<SttSession> {
    return this.usage.opened(
      this.inner.name,
      paidByOf(this.inner, this.entry),
      this.inner.open({
        ...options,
        languages: this.entry.languages.length ? this.entry.languages : options.languages,
        model: this.entry.model,
        keyterms: this.keyterms.length ? this.keyterms : undefined,
        providerOptions: this.entry.options,
      }),
    );
  }
}

/** Counts the deployment's default providers that serve after the plan's (paid by the platform when networked). */
class DefaultStt implements SttProvider {
  constructor(
    private readonly inner: SttProvider,
    private readonly usage: SpeechUsage,
  ) {}

  get name(): SttProvider['name'] {
    return this.inner.name;
  }

  open(options: SttOptions): Promise<SttSession> {
    const paidBy = KEYLESS.has(this.inner.name) ? undefined : 'platform';
    return this.usage.opened(this.inner.name, paidBy, this.inner.open(options));
  }
}

export interface CallSpeechOptions {
  timeoutMs: number;
  defaults: DefaultSpeech;
}

/** The providers of one call from its plan (see the file's comment). */
export function callSpeechOf(
  context: VoiceCallContext,
  plan: SpeechPlan,
  options: CallSpeechOptions,
): CallSpeech {
  const usage = new SpeechUsage();
  const callerLanguage = new CallerLanguage(context.agent.spokenLanguages[0] ?? 'en');
  const { defaults, timeoutMs } = options;
  const keyterms = plan.keyterms.slice(0, MAX_PLAN_KEYTERMS);

  const voices = new PlannedVoices(callerLanguage);
  const offline = defaults.tts.find((p) => p.name === 'offline') ?? new OfflineTtsProvider();
  // What speaks a voice whose provider has no key: the deployment's local speech where it runs it (eSpeak NG, in
  // the voice's language), else the offline engine.
  const standIn = defaults.tts.find((p) => p.name === 'local') ?? offline;
  for (const entry of plan.tts) {
    const capabilities = KEYLESS.has(entry.provider) ? undefined : ttsCapabilities(entry.provider);
    const inner: TtsProvider =
      entry.credential && capabilities
        ? capabilities.create({
            baseUrl: entry.credential.baseUrl,
            apiKey: entry.credential.apiKey,
            region: entry.credential.region,
            model: entry.model || capabilities.defaultModel,
            timeoutMs,
          })
        : (defaults.tts.find((p) => p.name === entry.provider) ?? standIn);
    // Without a key the voice is spoken by the stand-in: the plan says so, and the transcript names it.
    const planned =
      inner === standIn && entry.provider !== standIn.name ? { ...entry, credential: undefined } : entry;
    voices.all.push(new PlannedTts(inner, planned, plan.pronunciations, usage, voices));
  }
  const tts: TtsProvider[] = [...voices.all];
  const primary = plan.tts[0];
  const voice = primary ? voiceOf(primary) : fallbackVoice(context);
  // The offline engine closes the chain when the deployment's default ends with it: never a silent line.
  if (defaults.tts.some((p) => p.name === 'offline') && !tts.some((p) => p.name === 'offline')) {
    tts.push(
      new PlannedTts(
        offline,
        { ...(primary ?? offlineEntry(voice)), provider: 'offline', credential: undefined },
        plan.pronunciations,
        usage,
        voices,
      ),
    );
  }
  if (tts.length === 0) tts.push(...defaults.tts);

  const stt: SttProvider[] = [];
  for (const entry of plan.stt) {
    const capabilities = KEYLESS.has(entry.provider) ? undefined : sttCapabilities(entry.provider);
    const inner =
      entry.credential && capabilities
        ? capabilities.create({
            baseUrl: entry.credential.baseUrl,
            apiKey: entry.credential.apiKey,
            region: entry.credential.region,
            model: entry.model || capabilities.defaultModel,
            timeoutMs,
          })
        : defaults.stt.find((p) => p.name === entry.provider);
    if (inner) stt.push(new PlannedStt(inner, entry, keyterms, usage));
  }
  // The deployment's transcribers follow the agent's own (any of them not already there).
  for (const fallback of defaults.stt) {
    if (!stt.some((p) => p.name === fallback.name)) stt.push(new DefaultStt(fallback, usage));
  }
  return { voice, stt, tts, usage, callerLanguage };
}

function offlineEntry(voice: TtsVoice): TtsPlanEntry {
  return { provider: 'offline', voiceId: OFFLINE_VOICE_ID, ...voice };
}

/**
 * Why a browser session's user goes unheard on the offline recogniser, and what the team fixes it with, in the
 * console's words (the console shows its own, with links; a partner's page may show this one).
 */
export const OFFLINE_RECOGNISER_WARNING =
  "This agent hears with the offline development recogniser, which understands only the platform's own " +
  'synthetic speech, not a person: give the agent a transcriber (the Transcriber tab of its page in the ' +
  'console) with that provider’s key (Provider keys in the console).';

/** The session's speech as a client is told it (see MediaStreamNotice `speech`). */
export function speechNotice(speech: Pick<CallSpeech, 'stt' | 'tts'>): MediaStreamNotice {
  const stt = speech.stt[0]?.name ?? 'offline';
  const tts = speech.tts[0]?.name ?? 'offline';
  return stt === 'offline'
    ? { type: 'speech', stt, tts, warning: OFFLINE_RECOGNISER_WARNING }
    : { type: 'speech', stt, tts };
}

/** The snapshot's speech choices, as agents.speech.plan takes them. */
export async function fetchSpeechPlan(rpc: RpcClient, context: VoiceCallContext): Promise<SpeechPlan> {
  const agent = context.agent;
  return rpc.request(Subjects.agents.speechPlan, context.partnerId, {
    callId: context.callId,
    voiceId: agent.voiceId,
    fallbackVoiceIds: agent.fallbackVoiceIds ?? [],
    transcriber: agent.transcriber ?? null,
    fallbackTranscriber: agent.fallbackTranscriber ?? null,
    dictionaryIds: agent.dictionaryIds ?? [],
    spokenLanguages: agent.spokenLanguages,
  });
}

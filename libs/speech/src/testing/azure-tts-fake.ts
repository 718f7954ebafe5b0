// A fake of Azure Speech's text-to-speech REST API, speaking its published protocol as documented in Microsoft
// Learn "Text to speech REST API" (speech-service/rest-text-to-speech, Speech service v1 endpoints, read 2026-11)
// and "Speech Synthesis Markup Language (SSML)" (speak/voice/prosody/sub/phoneme, SSML 1.0):
// - POST /cognitiveservices/v1 with `Ocp-Apim-Subscription-Key`, `Content-Type: application/ssml+xml`,
//   `X-Microsoft-OutputFormat` (raw-8khz/16khz/24khz/48khz-16bit-mono-pcm, or riff-* with a RIFF header),
//   `User-Agent`; body SSML. 200: the audio, chunked, as it is synthesized. 400: a missing or invalid header or
//   SSML that is not well-formed (Azure answers these with an empty body), 401: a wrong key, 415: another
//   content type, 5xx: a server-side failure.
// - GET /cognitiveservices/voices/list with the key (the key check): a JSON array of voices.
// The SSML is parsed strictly (xml-reader): an unescaped & or < is refused as Azure refuses it, so specs prove
// the client's escaping. The audio is the offline engine's speech of the spoken text (sub aliases spoken,
// phoneme elements spoken as their text), so FakeRecogniser reads the words back.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pcm16WavHeader } from '@vap/media';
import { readBody, sendJson, type StartedFakeServer, startFakeServer } from '@vap/testing';
import { FailureSwitch, type FailureMode } from './failure-switch';
import { pcmBytes, speechPcm } from './fake-provider-server';
import {
  DEFAULT_PACING,
  keyMatches,
  newProgress,
  streamInChunks,
  type StreamPacing,
  type StreamProgress,
} from './streamed-answer';
import { childElements, parseXml, XmlSyntaxError, type XmlElement, type XmlNode } from './xml-reader';

/** What one synthesis request's SSML said. */
export interface AzureSsml {
  /** speak's xml:lang. */
  lang: string;
  /** The voice element's name. */
  voice: string;
  /** The first prosody element's attributes. */
  prosody: { rate?: string; volume?: string; pitch?: string } | undefined;
  subs: { text: string; alias: string }[];
  phonemes: { text: string; alphabet: string; ph: string }[];
  /** What is spoken: text content with each sub's alias in its place, whitespace collapsed. */
  text: string;
}

/** One /cognitiveservices/v1 request as the fake saw it. */
export interface AzureTtsRequest extends StreamProgress {
  subscriptionKey: string | undefined;
  contentType: string | undefined;
  outputFormat: string | undefined;
  userAgent: string | undefined;
  /** The body as sent. */
  body: string;
  /** The parsed SSML; undefined when it was refused. */
  ssml: AzureSsml | undefined;
  /** Why the request was refused (400/415), as the fake judged it. */
  refusal: string | undefined;
  status: number;
  failed: boolean;
}

export interface AzureTtsFakeOptions {
  apiKey: string;
  /** Voices the region offers (others are refused with 400); the platform catalog's by default. */
  voices?: readonly string[];
  pacing?: Partial<StreamPacing>;
}

export const AZURE_FAKE_VOICES: readonly string[] = [
  'en-IN-NeerjaNeural',
  'en-IN-PrabhatNeural',
  'en-US-JennyNeural',
  'hi-IN-SwaraNeural',
  'hi-IN-MadhurNeural',
  'mr-IN-AarohiNeural',
  'kn-IN-SapnaNeural',
  'kn-IN-GaganNeural',
  'ml-IN-SobhanaNeural',
  'ml-IN-MidhunNeural',
  'gu-IN-DhwaniNeural',
  'gu-IN-NiranjanNeural',
  'pa-IN-VaaniNeural',
  'pa-IN-OjasNeural',
  'bn-IN-TanishaaNeural',
  'bn-IN-BashkarNeural',
  'ta-IN-PallaviNeural',
  'te-IN-ShrutiNeural',
];

/** Output formats the fake serves: sample rate and whether a RIFF header comes first. */
const FORMATS: Record<string, { rate: number; riff: boolean }> = {};
for (const rate of [8, 16, 24, 48]) {
  FORMATS[`raw-${rate}khz-16bit-mono-pcm`] = { rate: rate * 1000, riff: false };
  FORMATS[`riff-${rate}khz-16bit-mono-pcm`] = { rate: rate * 1000, riff: true };
}

const ACCESS_DENIED = {
  error: {
    code: '401',
    message:
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for ' +
      'an active subscription and use a correct regional API endpoint for your resource.',
  },
};
const PHONETIC_ALPHABETS = ['ipa', 'sapi', 'ups', 'x-microsoft-sapi', 'x-microsoft-ups'];
const MAX_SSML_BYTES = 64 * 1024;

class SsmlError extends Error {}

/** Reads the SSML the way the service does, or throws SsmlError saying why it is refused. */
export function readAzureSsml(body: string): AzureSsml {
  let root: XmlElement;
  try {
    root = parseXml(body);
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw new SsmlError(`SSML is not well-formed: ${error.message}`);
    throw error;
  }
  if (root.name !== 'speak') throw new SsmlError(`the root element is <${root.name}>, not <speak>`);
  if (root.attributes.version !== '1.0') throw new SsmlError('speak needs version="1.0"');
  const lang = root.attributes['xml:lang'];
  if (!lang) throw new SsmlError('speak needs xml:lang');
  for (const child of root.children) {
    if (typeof child === 'string' ? child.trim() : child.name !== 'voice') {
      throw new SsmlError('speak may hold only voice elements');
    }
  }
  const voices = childElements(root);
  if (!voices.length) throw new SsmlError('speak holds no voice element');
  const voice = voices[0].attributes.name;
  if (!voice) throw new SsmlError('voice needs a name');
  const ssml: AzureSsml = { lang, voice, prosody: undefined, subs: [], phonemes: [], text: '' };
  const spoken: string[] = [];
  const visit = (node: XmlNode): void => {
    if (typeof node === 'string') return void spoken.push(node);
    const inner = () => node.children.map((c) => (typeof c === 'string' ? c : '')).join('');
    switch (node.name) {
      case 'sub': {
        const alias = node.attributes.alias;
        if (alias === undefined) throw new SsmlError('sub needs an alias');
        if (childElements(node).length) throw new SsmlError('sub may hold text only');
        ssml.subs.push({ text: inner(), alias });
        return void spoken.push(alias);
      }
      case 'phoneme': {
        const { alphabet = 'sapi', ph } = node.attributes;
        if (!ph) throw new SsmlError('phoneme needs ph');
        if (!PHONETIC_ALPHABETS.includes(alphabet))
          throw new SsmlError(`unknown phonetic alphabet ${alphabet}`);
        if (childElements(node).length) throw new SsmlError('phoneme may hold text only');
        ssml.phonemes.push({ text: inner(), alphabet, ph });
        return void spoken.push(inner());
      }
      case 'prosody':
        ssml.prosody ??= {
          rate: node.attributes.rate,
          volume: node.attributes.volume,
          pitch: node.attributes.pitch,
        };
        break;
      case 'break':
        return void spoken.push(' ');
      case 'voice':
        throw new SsmlError('voice elements may not nest');
    }
    node.children.forEach(visit);
  };
  for (const v of voices) v.children.forEach(visit);
  ssml.text = spoken.join('').replace(/\s+/g, ' ').trim();
  return ssml;
}

export class AzureTtsFake {
  readonly requests: AzureTtsRequest[] = [];
  /** Key checks (GET /cognitiveservices/voices/list). */
  readonly voiceListRequests: { subscriptionKey: string | undefined; ok: boolean }[] = [];
  private readonly failures = new FailureSwitch();

  private constructor(
    private readonly server: StartedFakeServer,
    private readonly apiKey: string,
    private readonly voices: readonly string[],
    private readonly pacing: StreamPacing,
  ) {}

  static async start({ apiKey, voices, pacing }: AzureTtsFakeOptions): Promise<AzureTtsFake> {
    // The server starts first (its port makes the base URL); its handler reaches the fake built after.
    const ref: { fake?: AzureTtsFake } = {};
    const server = await startFakeServer({ request: (req, res, url) => ref.fake!.handle(req, res, url) });
    const fake = new AzureTtsFake(server, apiKey, voices ?? AZURE_FAKE_VOICES, {
      ...DEFAULT_PACING,
      ...pacing,
    });
    ref.fake = fake;
    return fake;
  }

  /** What SPEECH_AZURE_BASE_URL takes (in place of https://{region}.tts.speech.microsoft.com). */
  get baseUrl(): string {
    return this.server.url;
  }

  /** After `after` more good requests, the next `times` ones fail the chosen way. */
  fail(mode: FailureMode, { after = 0, times = Infinity }: { after?: number; times?: number } = {}): void {
    this.failures.set(mode, after, times);
  }

  heal(): void {
    this.failures.clear();
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private key(req: IncomingMessage): string | undefined {
    const header = req.headers['ocp-apim-subscription-key'];
    return Array.isArray(header) ? header[0] : header;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/cognitiveservices/voices/list' && req.method === 'GET') {
      const ok = keyMatches(this.key(req), this.apiKey);
      this.voiceListRequests.push({ subscriptionKey: this.key(req), ok });
      if (!ok) return sendJson(res, 401, ACCESS_DENIED);
      return sendJson(res, 200, this.voiceList());
    }
    if (path !== '/cognitiveservices/v1') return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405).end();
    if (!keyMatches(this.key(req), this.apiKey)) return sendJson(res, 401, ACCESS_DENIED);
    await this.synthesize(req, res);
  }

  private async synthesize(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: string;
    try {
      body = (await readBody(req, MAX_SSML_BYTES)).toString('utf8');
    } catch {
      // Over the service's SSML size limit: refused like any other invalid request, with no body.
      return void res.writeHead(400, `SSML over ${MAX_SSML_BYTES} bytes`).end();
    }
    const record: AzureTtsRequest = {
      subscriptionKey: this.key(req),
      contentType: req.headers['content-type'],
      outputFormat: req.headers['x-microsoft-outputformat'] as string | undefined,
      userAgent: req.headers['user-agent'],
      body,
      ssml: undefined,
      refusal: undefined,
      status: 0,
      failed: false,
      ...newProgress(),
    };
    this.requests.push(record);
    const refuse = (status: number, why: string) => {
      record.status = status;
      record.refusal = why;
      // Azure says nothing in the body of these answers; the status line carries a short reason.
      res.writeHead(status, why.replace(/[^\x20-\x7E]/g, '?').slice(0, 200)).end();
    };
    if (!/^application\/ssml\+xml\b/i.test(record.contentType ?? '')) {
      return refuse(415, 'Content-Type must be application/ssml+xml');
    }
    const format = FORMATS[(record.outputFormat ?? '').toLowerCase()];
    if (!format)
      return refuse(400, `unsupported X-Microsoft-OutputFormat ${record.outputFormat ?? '(none)'}`);
    if (!record.userAgent) return refuse(400, 'User-Agent is required');
    try {
      record.ssml = readAzureSsml(body);
    } catch (error) {
      if (error instanceof SsmlError) return refuse(400, error.message);
      throw error;
    }
    if (!this.voices.includes(record.ssml.voice))
      return refuse(400, `voice ${record.ssml.voice} is not offered here`);
    const failure = this.failures.next();
    record.failed = failure !== null;
    if (failure === 'hang') return;
    if (failure === 'error') {
      record.status = 500;
      return void res.writeHead(500, 'Synthesis failed. StatusCode: InternalServerError').end();
    }
    const pcm = pcmBytes(await speechPcm(record.ssml.text, format.rate));
    const audio = format.riff ? Buffer.concat([pcm16WavHeader(pcm.length, format.rate), pcm]) : pcm;
    record.status = 200;
    res.writeHead(200, {
      'content-type': format.riff ? 'audio/x-wav' : 'audio/x-pcm',
      'transfer-encoding': 'chunked',
    });
    await streamInChunks(req, res, audio, this.pacing, record, failure === 'close');
  }

  private voiceList(): unknown[] {
    return this.voices.map((name) => {
      const locale = name.split('-').slice(0, 2).join('-');
      const short = name.split('-').slice(2).join('-');
      return {
        Name: `Microsoft Server Speech Text to Speech Voice (${locale}, ${short})`,
        ShortName: name,
        Locale: locale,
        VoiceType: 'Neural',
        Status: 'GA',
      };
    });
  }
}

// OpenAI-compatible speech endpoints: POST /v1/audio/transcriptions (multipart: file, model, language, prompt,
// response_format) and POST /v1/audio/speech (JSON: model, input, voice, response_format, speed; `pcm` is raw
// 24 kHz 16-bit little-endian mono, streamed). The fake "recognises" only the offline text signal under speech,
// so what it transcribes is exactly what the platform's audio carried.
import { IncomingMessage, ServerResponse } from 'node:http';
import { decodePcm16WavTracks, pcm16ToBuffer, TextSignalDecoder } from '@vap/media';
import { bearerOk, sendOpenAiError } from '@vap/llm/testing';
import { spokenAudio } from '@vap/carrier-sim';
import { FailureSwitch } from './failures';
import { parseMultipart } from './multipart';

/** What each transcription request asked for and what the fake answered. */
export interface TranscriptionRequest {
  authorization: string | undefined;
  model: string | undefined;
  language: string | undefined;
  prompt: string | undefined;
  responseFormat: string | undefined;
  filename: string | undefined;
  sampleRate: number;
  channels: number;
  durationMs: number;
  /** The text decoded from the audio ('' when it carried none). */
  text: string;
  failed: boolean;
}

export interface SpeechRequest {
  authorization: string | undefined;
  model: unknown;
  input: unknown;
  voice: unknown;
  responseFormat: unknown;
  speed: unknown;
  /** Any other fields (e.g. instructions, language hints), kept for assertions. */
  body: Record<string, unknown>;
  failed: boolean;
}

/** OpenAI's PCM response format. */
export const OPENAI_PCM_SAMPLE_RATE = 24000;
/** Bytes per streamed write: odd on purpose, so clients must handle samples split across chunks. */
const SPEECH_CHUNK_BYTES = 4801;

export { bearerOk, sendOpenAiError };

export async function handleTranscription(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  apiKey: string,
  failures: FailureSwitch,
  log: TranscriptionRequest[],
): Promise<void> {
  if (!bearerOk(req, apiKey))
    return sendOpenAiError(res, 401, 'Incorrect API key provided', 'invalid_api_key');
  let parts;
  try {
    parts = parseMultipart(req.headers['content-type'] ?? '', body);
  } catch (err) {
    return sendOpenAiError(res, 400, (err as Error).message);
  }
  const field = (name: string) =>
    parts.find((p) => p.name === name && p.filename === undefined)?.data.toString('utf8');
  const file = parts.find((p) => p.name === 'file');
  if (!file) return sendOpenAiError(res, 400, "'file' is a required property");
  if (!field('model')) return sendOpenAiError(res, 400, "'model' is a required property");
  let wav;
  try {
    wav = decodePcm16WavTracks(file.data);
  } catch (err) {
    return sendOpenAiError(res, 400, `Invalid file format: ${(err as Error).message}`);
  }
  const text = new TextSignalDecoder(wav.sampleRate).push(wav.samples[0]).join(' ');
  const failure = failures.next();
  log.push({
    authorization: req.headers.authorization,
    model: field('model'),
    language: field('language'),
    prompt: field('prompt'),
    responseFormat: field('response_format'),
    filename: file.filename,
    sampleRate: wav.sampleRate,
    channels: wav.channels,
    durationMs: (wav.samples[0].length * 1000) / wav.sampleRate,
    text,
    failed: failure !== null,
  });
  if (failure === 'hang') return;
  if (failure === 'close') return void req.socket.destroy();
  if (failure === 'error')
    return sendOpenAiError(
      res,
      500,
      'The server had an error while processing your request.',
      'server_error',
    );
  if (field('response_format') === 'text') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }));
}

export async function handleSpeech(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  apiKey: string,
  failures: FailureSwitch,
  log: SpeechRequest[],
): Promise<void> {
  if (!bearerOk(req, apiKey))
    return sendOpenAiError(res, 401, 'Incorrect API key provided', 'invalid_api_key');
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return sendOpenAiError(res, 400, 'We could not parse the JSON body of your request.');
  }
  for (const required of ['model', 'input', 'voice']) {
    if (typeof json[required] !== 'string' || !json[required]) {
      return sendOpenAiError(res, 400, `'${required}' is a required property`);
    }
  }
  const failure = failures.next();
  log.push({
    authorization: req.headers.authorization,
    model: json.model,
    input: json.input,
    voice: json.voice,
    responseFormat: json.response_format,
    speed: json.speed,
    body: json,
    failed: failure !== null,
  });
  // Only raw PCM is produced here; asking for mp3 (the API's default) would be a bug on a phone line.
  if (json.response_format !== 'pcm')
    return sendOpenAiError(res, 400, 'the fake serves response_format "pcm" only');
  if (failure === 'hang') return;
  if (failure === 'error')
    return sendOpenAiError(
      res,
      500,
      'The server had an error while processing your request.',
      'server_error',
    );
  const audio = pcm16ToBuffer(spokenAudio(String(json.input), { sampleRate: OPENAI_PCM_SAMPLE_RATE }));
  res.writeHead(200, { 'content-type': 'audio/pcm', 'transfer-encoding': 'chunked' });
  for (let at = 0; at < audio.length; at += SPEECH_CHUNK_BYTES) {
    if (failure === 'close' && at >= audio.length / 3) {
      // Part of the audio, then the connection drops mid-stream.
      req.socket.destroy();
      return;
    }
    if (!res.write(audio.subarray(at, at + SPEECH_CHUNK_BYTES))) {
      await new Promise<void>((resolve) => res.once('drain', resolve));
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (res.destroyed) return;
  }
  res.end();
}

// Deepgram-compatible live transcription: a WebSocket at /v1/listen (Authorization: Token <key>; query
// encoding, sample_rate, interim_results, endpointing, language, model; repeated keyterm/keywords params are
// kept in `keyterms`). With language=multi each result names its language (`languages`, and `language` per
// word): Devanagari is Hindi, anything else English. Binary frames are audio; text frames are control messages
// (KeepAlive, Finalize, CloseStream). The fake decodes the offline text signal from the audio and answers
// `Results`: an interim (is_final false) as soon as it has the words, then the final (is_final and speech_final)
// once the audio has been quiet for `endpointing` ms, or at once with from_finalize after Finalize. CloseStream
// answers `Metadata` and closes.
import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { mulawDecode, rms, TextSignalDecoder } from '@vap/media';
import { FailureSwitch } from './failure-switch';

export interface DeepgramSession {
  authorization: string | undefined;
  query: Record<string, string>;
  /** The keyterm (Nova-3) or keywords params, in order. */
  keyterms: string[];
  /** Control messages received (parsed JSON), in order. */
  controls: Record<string, unknown>[];
  /** Results and other messages sent, in order. */
  sent: Record<string, unknown>[];
  audioBytes: number;
  closed: boolean;
}

/** The fake's language of a text for language=multi: Devanagari is Hindi, anything else English. */
function languageOf(text: string): string {
  return /[\u0900-\u097F]/.test(text) ? 'hi' : 'en';
}

/** RMS under which a 20 ms frame counts as quiet for the fake's endpointing. */
const QUIET_RMS = 100;

export function refuseListenUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({
    err_code: status === 401 ? 'INVALID_AUTH' : 'Bad Request',
    err_msg: message,
  });
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Bad Request'}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function handleListenUpgrade(
  wss: WebSocketServer,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  apiKey: string,
  failures: FailureSwitch,
  sessions: DeepgramSession[],
): void {
  const url = new URL(req.url ?? '/', 'ws://fake');
  if (req.headers.authorization !== `Token ${apiKey}`)
    return refuseListenUpgrade(socket, 401, 'Invalid credentials.');
  const query = Object.fromEntries(url.searchParams);
  if (query.encoding !== 'mulaw' || query.sample_rate !== '8000') {
    return refuseListenUpgrade(socket, 400, 'the fake serves encoding=mulaw&sample_rate=8000 only');
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    const session: DeepgramSession = {
      authorization: req.headers.authorization,
      query,
      keyterms: url.searchParams.getAll('keyterm').concat(url.searchParams.getAll('keywords')),
      controls: [],
      sent: [],
      audioBytes: 0,
      closed: false,
    };
    sessions.push(session);
    runSession(ws, session, failures);
  });
}

function runSession(ws: WebSocket, session: DeepgramSession, failures: FailureSwitch): void {
  const decoder = new TextSignalDecoder(8000);
  const requestId = randomUUID();
  const endpointingMs = /^\d+$/.test(session.query.endpointing ?? '')
    ? Number(session.query.endpointing)
    : 10;
  const interim = session.query.interim_results === 'true';
  const multilingual = session.query.language === 'multi';
  /** Words decoded but not yet sent as final, the media time they started and how long it has been quiet. */
  let pending: string | null = null;
  let quietMs = 0;
  let audioMs = 0;
  let segmentStart = 0;
  let hung = false;

  const send = (message: Record<string, unknown>) => {
    if (hung || ws.readyState !== WebSocket.OPEN) return;
    session.sent.push(message);
    ws.send(JSON.stringify(message));
  };
  const results = (transcript: string, isFinal: boolean, speechFinal: boolean, fromFinalize = false) => ({
    type: 'Results',
    channel_index: [0, 1],
    duration: (audioMs - segmentStart) / 1000,
    start: segmentStart / 1000,
    is_final: isFinal,
    speech_final: speechFinal,
    from_finalize: fromFinalize,
    channel: {
      alternatives: [
        {
          transcript,
          confidence: transcript ? 0.99 : 0,
          // Code-switching (language=multi) names each result's language: Devanagari is Hindi, else English.
          ...(multilingual && transcript ? { languages: [languageOf(transcript)] } : {}),
          words: transcript
            .split(/\s+/)
            .filter(Boolean)
            .map((word) => ({
              word: word.toLowerCase(),
              start: segmentStart / 1000,
              end: audioMs / 1000,
              confidence: 0.99,
              punctuated_word: word,
              ...(multilingual ? { language: languageOf(word) } : {}),
            })),
        },
      ],
    },
    metadata: {
      request_id: requestId,
      model_info: { name: session.query.model ?? 'general', version: 'fake', arch: 'fake' },
      model_uuid: randomUUID(),
    },
  });
  const finalize = (speechFinal: boolean, fromFinalize: boolean) => {
    const text = pending ?? '';
    pending = null;
    const failure = failures.next();
    if (failure === 'hang') {
      hung = true;
      return;
    }
    if (failure === 'close') return void ws.terminate();
    if (failure === 'error') {
      // Deepgram reports a processing failure by closing with 1011 and a reason.
      return void ws.close(1011, 'NET-0001: the fake failed');
    }
    send(results(text, true, speechFinal, fromFinalize));
    segmentStart = audioMs;
  };

  ws.on('message', (data, isBinary) => {
    if (isBinary) {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
      session.audioBytes += bytes.length;
      const pcm = mulawDecode(bytes);
      audioMs += (pcm.length * 1000) / 8000;
      for (const text of decoder.push(pcm)) {
        pending = pending ? `${pending} ${text}` : text;
        if (interim) {
          const words = pending.split(/\s+/);
          send(results(words.slice(0, Math.max(1, Math.ceil(words.length / 2))).join(' '), false, false));
        }
      }
      quietMs = rms(pcm) < QUIET_RMS ? quietMs + (pcm.length * 1000) / 8000 : 0;
      if (pending !== null && quietMs >= endpointingMs) finalize(true, false);
      return;
    }
    let control: Record<string, unknown>;
    try {
      control = JSON.parse(data.toString()) as Record<string, unknown>;
    } catch {
      return void ws.close(1003, 'DATA-0000: invalid control message');
    }
    session.controls.push(control);
    if (control.type === 'Finalize') finalize(false, true);
    else if (control.type === 'CloseStream') {
      if (pending !== null) finalize(true, false);
      send({
        type: 'Metadata',
        transaction_key: 'deprecated',
        request_id: requestId,
        created: new Date().toISOString(),
        duration: audioMs / 1000,
        channels: 1,
      });
      ws.close(1000);
    }
  });
  ws.on('close', () => {
    session.closed = true;
  });
}

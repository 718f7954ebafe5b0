// A carrier's media stream with no phone behind it, for the specs of what one stream may cost the media plane: it
// speaks carrier_b's or carrier_a's protocol, streams the caller's silence (or audio) on the carrier's clock, and can
// misbehave as carriers have in the field: flood, go quiet, stop reading its socket, or send frames of its own.
import WebSocket from 'ws';
import { FrameClock, Framer, MediaStreamCarrier, mulawEncode, MULAW_FRAME_BYTES } from '@vap/media';
import { CarrierAMediaStream, CarrierBMediaStream } from '@vap/carrier-sim';

/** How the platform ended the socket. */
export interface StreamClose {
  code: number;
  reason: string;
}

/** One protocol's frames from the carrier's side. */
interface CarrierFrames {
  opening(): object[];
  media(mulaw: Buffer): object;
  /** The answer to a platform's mark or checkpoint: played at once (the carrier buffers nothing here). */
  played(frame: { event?: string; mark?: { name?: string }; name?: string }): object | null;
}

function framesOf(carrier: MediaStreamCarrier, callId: string): CarrierFrames {
  if (carrier === 'carrier_a') {
    const stream = new CarrierAMediaStream({ accountId: 'MA_integration', callId });
    return {
      opening: () => [stream.start()],
      media: (mulaw) => stream.media(mulaw),
      played: (frame) =>
        frame.event === 'checkpoint' && typeof frame.name === 'string'
          ? stream.playedStream(frame.name)
          : null,
    };
  }
  const stream = new CarrierBMediaStream({
    accountSid: 'AC_integration',
    callSid: `CA${callId.replace(/-/g, '')}`,
  });
  return {
    opening: () => [stream.connected(), stream.start({})],
    media: (mulaw) => stream.media(mulaw),
    played: (frame) =>
      frame.event === 'mark' && typeof frame.mark?.name === 'string' ? stream.mark(frame.mark.name) : null,
  };
}

export class RawCarrierStream {
  readonly closed: Promise<StreamClose>;
  private readonly socket: WebSocket;
  private readonly frames: CarrierFrames;
  private readonly clock: FrameClock;

  constructor(options: {
    url: string;
    carrier: MediaStreamCarrier;
    callId: string;
    /** MEDIA_TIME_SCALE of the service under test. */
    timeScale: number;
  }) {
    this.frames = framesOf(options.carrier, options.callId);
    this.socket = new WebSocket(options.url, { handshakeTimeout: 10_000 });
    // As the carrier's phone does: silence when the caller says nothing, missed frames sent after a stall.
    this.clock = new FrameClock({
      send: (frame) => this.send(this.frames.media(frame)),
      timeScale: options.timeScale,
      idle: 'silence',
      late: 'catch-up',
    });
    this.socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const answer = this.frames.played(JSON.parse(data.toString()) as object);
      if (answer) this.send(answer);
    });
    this.closed = new Promise((resolve) =>
      this.socket.on('close', (code, reason) => {
        this.clock.stop();
        resolve({ code, reason: reason.toString() });
      }),
    );
    // A refused upgrade rejects open(); a socket that breaks later is seen on `closed`.
    this.socket.on('error', () => undefined);
  }

  /** Resolves once the socket is open and the protocol's opening frames went out; the clock then streams. */
  open(): Promise<this> {
    return new Promise((resolve, reject) => {
      this.socket.once('open', () => {
        for (const frame of this.frames.opening()) this.send(frame);
        this.clock.start();
        resolve(this);
      });
      this.socket.once('error', reject);
    });
  }

  /** Plays the caller's audio (PCM16 8 kHz) on the clock. */
  play(pcm: Int16Array): void {
    const framer = new Framer();
    const frames = framer.push(mulawEncode(pcm));
    const tail = framer.flush();
    if (tail) frames.push(tail);
    for (const frame of frames) this.clock.enqueue(frame);
    this.clock.endUtterance();
  }

  /** Sends a frame of the spec's own making (an unknown event, an oversize message), off the clock. */
  sendFrame(frame: object): void {
    this.send(frame);
  }

  /** Sends mu-law audio at once in `frameBytes` chunks as media frames, however far ahead of the clock. */
  flood(mulaw: Buffer, frameBytes = MULAW_FRAME_BYTES): void {
    for (let at = 0; at < mulaw.length; at += frameBytes)
      this.send(this.frames.media(mulaw.subarray(at, Math.min(mulaw.length, at + frameBytes))));
  }

  /** The carrier goes quiet: no more frames of any kind, the socket left open and still read. */
  goSilent(): void {
    this.clock.stop();
  }

  /** `wallMs` of the carrier's frames are lost on the way (a network drop); the stream then goes on. */
  async lose(wallMs: number): Promise<void> {
    this.clock.stop();
    await new Promise((resolve) => setTimeout(resolve, wallMs));
    if (this.isOpen) this.clock.start();
  }

  /** The carrier stops reading its socket (the platform's frames and pings pile up unread) while it streams on. */
  stopReading(): void {
    this.socket.pause();
  }

  resumeReading(): void {
    this.socket.resume();
  }

  /** The caller hangs up: the socket closes from the carrier's side. */
  hangUp(): void {
    this.clock.stop();
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000, 'call ended');
    else this.socket.terminate();
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  private send(frame: object): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }
}

import { Framer, MULAW_FRAME_BYTES, MULAW_SILENCE } from '@vap/media';

type Entry = { frame: Buffer } | { mark: string };

const SILENCE = Buffer.alloc(MULAW_FRAME_BYTES, MULAW_SILENCE);

/**
 * The phone's loudspeaker queue for what the platform sends, with carrier_b's semantics: audio plays in
 * order, 20 ms per tick; a mark comes back once everything queued before it has played; a clear drops the
 * queued audio and returns the pending marks at once.
 */
export class AgentPlayback {
  private readonly framer = new Framer();
  private queue: Entry[] = [];
  private frames = 0;

  constructor(private readonly markReached: (name: string) => void) {}

  /** Frames of audio waiting to play. */
  get queuedFrames(): number {
    return this.frames;
  }

  /** Audio of any length (mu-law 8 kHz): cut into 20 ms frames, the remainder waits for more. */
  push(mulaw: Buffer): void {
    for (const frame of this.framer.push(mulaw)) this.append({ frame });
  }

  mark(name: string): void {
    // A partial frame before the mark plays (padded) before the mark is reached.
    const tail = this.framer.flush();
    if (tail) this.append({ frame: tail });
    if (this.frames === 0) this.markReached(name);
    else this.queue.push({ mark: name });
  }

  clear(): void {
    this.framer.reset();
    const pending = this.queue.filter((e): e is { mark: string } => 'mark' in e);
    this.queue = [];
    this.frames = 0;
    for (const { mark } of pending) this.markReached(mark);
  }

  /**
   * The next 20 ms to play, silence when nothing is queued. Marks at the head are reached first: the
   * audio before them finished playing with the previous tick.
   */
  next(): { frame: Buffer; silence: boolean } {
    this.reachMarks();
    const entry = this.queue.shift();
    if (!entry || !('frame' in entry)) return { frame: SILENCE, silence: true };
    this.frames--;
    return { frame: entry.frame, silence: false };
  }

  private append(entry: { frame: Buffer }): void {
    this.queue.push(entry);
    this.frames++;
  }

  private reachMarks(): void {
    while (this.queue.length && 'mark' in this.queue[0]) {
      this.markReached((this.queue.shift() as { mark: string }).mark);
    }
  }
}

import { MULAW_FRAME_BYTES, mulawEncode, resamplePcm16, whiteNoise } from '@vap/media';
import { execFileSync } from 'node:child_process';
import { AgentListener, TURN_GAP_MS, UNREAD_TURN_GAP_MS } from './agent-listener';
import { OfflineCalleeVoice } from '../callee/callee-voice';

const voice = new OfflineCalleeVoice();
const SILENCE = Buffer.alloc(MULAW_FRAME_BYTES, 0xff);

function framesOf(pcm: Int16Array): Buffer[] {
  const mulaw = mulawEncode(pcm);
  const frames: Buffer[] = [];
  for (let at = 0; at + MULAW_FRAME_BYTES <= mulaw.length; at += MULAW_FRAME_BYTES)
    frames.push(mulaw.subarray(at, at + MULAW_FRAME_BYTES));
  return frames;
}

/** Plays frames into the listener; returns the turns it finished with the frame index of each. */
function play(listener: AgentListener, frames: Buffer[], clock: { ms: number }) {
  const turns: { lines: string[]; at: number }[] = [];
  for (const frame of frames) {
    clock.ms += 20;
    const turn = listener.hear(frame, clock.ms);
    if (turn) turns.push({ lines: turn.lines, at: clock.ms });
  }
  return turns;
}

/** eSpeak NG saying `text` at 8 kHz: speech with no text signal under it. */
function espeak(text: string): Int16Array {
  const wav = execFileSync('espeak-ng', ['--stdout', '--stdin', '-v', 'en-us+m3'], { input: text });
  const pcm = new Int16Array(
    wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length - (wav.length % 2)),
  );
  return resamplePcm16(pcm, 22050, 8000);
}

const quiet = (ms: number) => Array.from({ length: ms / 20 }, () => SILENCE);

describe('AgentListener', () => {
  it('takes a turn as finished once a line has been read and TURN_GAP_MS of quiet followed', async () => {
    const listener = new AgentListener();
    const clock = { ms: 0 };
    expect(play(listener, framesOf(await voice.speak('Hello there.')), clock)).toEqual([]);
    const speechEnd = clock.ms;
    const turns = play(listener, quiet(2000), clock);
    // The synthesized clip ends with a little quiet of its own, so the gap may close before speechEnd + gap.
    expect(turns).toEqual([{ lines: ['Hello there.'], at: expect.any(Number) }]);
    expect(turns[0].at).toBeGreaterThan(speechEnd);
    expect(turns[0].at).toBeLessThanOrEqual(speechEnd + TURN_GAP_MS);
    expect(listener.heard).toEqual(['Hello there.']);
  });

  it('reads a line across quiet the loudspeaker filled in while the agent audio was late, but not across quiet it played', async () => {
    const frames = framesOf(await voice.speak('We have three plans for homes.'));
    const half = Math.floor(frames.length / 2);
    const hearWithGap = (filler: boolean) => {
      const listener = new AgentListener();
      let ms = 0;
      const hear = (frame: Buffer, isFiller = false) => listener.hear(frame, (ms += 20), isFiller);
      frames.slice(0, half).forEach((f) => hear(f));
      quiet(200).forEach((f) => hear(f, filler));
      frames.slice(half).forEach((f) => hear(f));
      quiet(1000).forEach((f) => hear(f));
      return listener.heard;
    };
    expect(hearWithGap(true)).toEqual(['We have three plans for homes.']);
    expect(hearWithGap(false)).toEqual([]);
  });

  it('keeps two sentences with a short pause between them in one turn', async () => {
    const listener = new AgentListener();
    const clock = { ms: 0 };
    const turns = [
      ...play(listener, framesOf(await voice.speak('Sure.')), clock),
      ...play(listener, quiet(TURN_GAP_MS - 160), clock),
      ...play(listener, framesOf(await voice.speak('We have three plans.')), clock),
      ...play(listener, quiet(1000), clock),
    ];
    expect(turns.map((t) => t.lines)).toEqual([['Sure.', 'We have three plans.']]);
  });

  it('a short sentence then a long one is one turn: the fallback waits while the next line arrives', async () => {
    const listener = new AgentListener();
    const clock = { ms: 0 };
    const turns = [
      ...play(listener, framesOf(await voice.speak('Thank you.')), clock),
      ...play(
        listener,
        framesOf(await voice.speak('I am Maya from Acme Insurance, calling about plans.')),
        clock,
      ),
      ...play(listener, quiet(1000), clock),
    ];
    expect(turns.map((t) => t.lines)).toEqual([
      ['Thank you.', 'I am Maya from Acme Insurance, calling about plans.'],
    ]);
  });

  it('speech with no text signal is a turn with no lines once it played and UNREAD_TURN_GAP_MS of quiet followed', () => {
    const listener = new AgentListener();
    const clock = { ms: 0 };
    const speech = framesOf(espeak('Thank you for calling. How can I help you today?'));
    expect(play(listener, speech, clock)).toEqual([]);
    const speechEnd = clock.ms;
    const turns = play(listener, quiet(2000), clock);
    expect(turns).toEqual([{ lines: [], at: expect.any(Number) }]);
    // The clip ends with a little quiet of its own, so the gap may close before speechEnd + gap.
    expect(turns[0].at).toBeGreaterThan(speechEnd);
    expect(turns[0].at).toBeLessThanOrEqual(speechEnd + UNREAD_TURN_GAP_MS);
    expect(listener.heard).toEqual([]);
    // A click is no turn: too little speech.
    expect(play(listener, [...framesOf(whiteNoise(8000 * 0.1, -20, 3)), ...quiet(2000)], clock)).toEqual([]);
  });

  it('noise without a line is no turn; a line under loud background audio ends by its fallback', async () => {
    const listener = new AgentListener();
    const clock = { ms: 0 };
    const noise = framesOf(whiteNoise(8000 * 3, -30, 7));
    expect(play(listener, noise, clock)).toEqual([]);
    expect(listener.agentTalking).toBe(true);
    const line = framesOf(await voice.speak('Thanks.'));
    const turns = play(listener, [...line, ...noise, ...noise], clock);
    expect(turns.map((t) => t.lines)).toEqual([['Thanks.']]);
  });
});

import { analyseAgentAudio, ReceivedFrame } from './agent-audio-analysis';

/** Frames every `gapMs` from `startMs`, all speech unless listed in `silentAt` (indexes). */
function paced(startMs: number, count: number, gapMs = 20, silentAt: number[] = []): ReceivedFrame[] {
  return Array.from({ length: count }, (_, i) => ({
    at: startMs + i * gapMs,
    speech: !silentAt.includes(i),
  }));
}

describe('analyseAgentAudio', () => {
  it('finds one utterance with zero jitter and no underruns when frames arrive every 20 ms', () => {
    const summary = analyseAgentAudio(paced(1000, 50));
    expect(summary).toMatchObject({ frames: 50, speechFrames: 50, utterances: 1, underruns: 0 });
    expect(summary.jitterMs).toHaveLength(49);
    expect(Math.max(...summary.jitterMs)).toBeCloseTo(0);
  });

  it('measures |gap - 20| for uneven arrivals inside an utterance', () => {
    const frames: ReceivedFrame[] = [0, 23, 40, 58, 78].map((at) => ({ at, speech: true }));
    const summary = analyseAgentAudio(frames);
    expect(summary.jitterMs.map((v) => Number(v.toFixed(3)))).toEqual([3, 3, 2, 0]);
    expect(summary.underruns).toBe(0);
  });

  it('splits utterances at a long silence and ignores filler frames between them', () => {
    const first = paced(0, 20);
    const filler = paced(400, 40, 20).map((f) => ({ ...f, speech: false }));
    const second = paced(1200, 20);
    const summary = analyseAgentAudio([...first, ...filler, ...second]);
    expect(summary.utterances).toBe(2);
    expect(summary.underruns).toBe(0);
    // 19 gaps inside each utterance; nothing across the turn boundary.
    expect(summary.jitterMs).toHaveLength(38);
    expect(summary.frames).toBe(80);
  });

  it('counts a gap over 40 ms inside an utterance as an underrun', () => {
    const frames = [...paced(0, 10), ...paced(260, 10)];
    const summary = analyseAgentAudio(frames);
    expect(summary.utterances).toBe(1);
    expect(summary.underruns).toBe(1);
    expect(Math.max(...summary.jitterMs)).toBeCloseTo(60);
  });

  it('counts filler silence between speech frames of one utterance as an underrun, even on time', () => {
    const summary = analyseAgentAudio(paced(0, 30, 20, [10, 11, 12]));
    expect(summary.utterances).toBe(1);
    expect(summary.underruns).toBe(1);
    expect(Math.max(...summary.jitterMs)).toBeCloseTo(0);
  });

  it('takes the thresholds it is given', () => {
    // 120 ms from the last frame of the first run to the first of the second.
    const frames = [...paced(0, 5), ...paced(200, 5)];
    expect(analyseAgentAudio(frames).underruns).toBe(1);
    expect(analyseAgentAudio(frames, { utteranceGapMs: 100 }).utterances).toBe(2);
    expect(analyseAgentAudio(frames, { underrunGapMs: 150 }).underruns).toBe(0);
  });
});

import { analyseAgentAudio, ReceivedFrame } from './agent-audio-analysis';

/** Frames of one answer every `gapMs` from `startMs`, all speech unless listed in `fillerAt` (indexes). */
function paced(
  answer: number,
  startMs: number,
  count: number,
  gapMs = 20,
  fillerAt: number[] = [],
): ReceivedFrame[] {
  return Array.from({ length: count }, (_, i) => ({
    at: startMs + i * gapMs,
    speech: !fillerAt.includes(i),
    answer,
  }));
}

const filler = (frames: ReceivedFrame[]) => frames.map((f) => ({ ...f, speech: false }));

describe('analyseAgentAudio', () => {
  it('finds one utterance with zero jitter and no underruns when frames arrive every 20 ms', () => {
    const summary = analyseAgentAudio(paced(0, 1000, 50));
    expect(summary).toMatchObject({ frames: 50, speechFrames: 50, utterances: 1, underruns: 0 });
    expect(summary.jitterMs).toHaveLength(49);
    expect(Math.max(...summary.jitterMs)).toBeCloseTo(0);
  });

  it('measures |gap - 20| for uneven arrivals inside an utterance', () => {
    const frames = [0, 23, 40, 58, 78].map((at) => ({ at, speech: true, answer: 0 }));
    const summary = analyseAgentAudio(frames);
    expect(summary.jitterMs.map((v) => Number(v.toFixed(3)))).toEqual([3, 3, 2, 0]);
    expect(summary.underruns).toBe(0);
  });

  it('keeps answers apart and ignores the filler before, between and after them', () => {
    const frames = [
      ...filler(paced(0, -100, 5)),
      ...paced(0, 0, 20),
      ...filler(paced(0, 400, 20)),
      ...filler(paced(1, 800, 20)),
      ...paced(1, 1200, 20),
      ...filler(paced(1, 1600, 5)),
    ];
    const summary = analyseAgentAudio(frames);
    expect(summary).toMatchObject({ frames: 90, speechFrames: 40, utterances: 2, underruns: 0 });
    // 19 gaps inside each utterance; nothing across the turn.
    expect(summary.jitterMs).toHaveLength(38);
  });

  it('counts a gap over 40 ms inside an utterance as one underrun, however long', () => {
    const summary = analyseAgentAudio([...paced(0, 0, 10), ...paced(0, 1180, 10)]);
    expect(summary.utterances).toBe(1);
    expect(summary.underruns).toBe(1);
    expect(Math.max(...summary.jitterMs)).toBeCloseTo(980);
  });

  it('counts filler silence between speech frames of one utterance as an underrun, even on time', () => {
    const summary = analyseAgentAudio(paced(0, 0, 30, 20, [10, 11, 12]));
    expect(summary.utterances).toBe(1);
    expect(summary.underruns).toBe(1);
    expect(Math.max(...summary.jitterMs)).toBeCloseTo(0);
  });

  it('takes the underrun gap it is given', () => {
    const frames = [...paced(0, 0, 5), ...paced(0, 200, 5)];
    expect(analyseAgentAudio(frames).underruns).toBe(1);
    expect(analyseAgentAudio(frames, { underrunGapMs: 150 }).underruns).toBe(0);
  });
});

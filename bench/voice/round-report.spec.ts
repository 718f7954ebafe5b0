import { TurnLatency } from '@vap/messages';
import { ReceivedFrame } from './agent-audio-analysis';
import { RoundInput, summariseRound, summariseShare, targetVerdicts } from './round-report';
import { SimulatedCallResult } from './simulated-caller';

const MB = 1024 * 1024;

function call(frames: ReceivedFrame[], extra: Partial<SimulatedCallResult> = {}): SimulatedCallResult {
  return {
    callId: 'c',
    frames,
    marksEchoed: 1,
    clears: 0,
    replyDelaysMs: [],
    turnEndsAt: [],
    unanswered: 0,
    endedBy: 'caller',
    ...extra,
  };
}

function turn(sttFinal: number, firstFrameOut: number): TurnLatency {
  return {
    endpointing_ms: sttFinal - 1,
    stt_final_ms: sttFinal,
    llm_first_token_ms: sttFinal + 1,
    tts_first_byte_ms: sttFinal + 2,
    first_frame_out_ms: firstFrameOut,
    voice_to_voice_ms: 700 + firstFrameOut,
  };
}

function input(overrides: Partial<RoundInput>): RoundInput {
  return {
    calls: 2,
    results: [],
    turns: [],
    endedReports: 2,
    usage: { cpuSeconds: 4, wallSeconds: 10, rssStartBytes: 110 * MB, rssPeakBytes: 120 * MB },
    rssBaselineBytes: 100 * MB,
    liveSessionsPeak: 2,
    ...overrides,
  };
}

describe('summariseRound', () => {
  it('pools pacing over every call and takes own time per turn as first frame out minus STT final', () => {
    const steady = Array.from({ length: 11 }, (_, i) => ({ at: i * 20, speech: true, answer: 0 }));
    const late = [0, 20, 43, 60, 130, 150].map((at) => ({ at, speech: true, answer: 1 }));
    const report = summariseRound(
      input({
        results: [
          call(steady, { replyDelaysMs: [900] }),
          call(late, { error: 'closed with 1011', unanswered: 1 }),
        ],
        turns: [turn(30, 35), turn(40, 52), turn(10, 12)],
      }),
    );
    expect(report).toMatchObject({
      calls: 2,
      failed: 1,
      unanswered: 1,
      utterances: 2,
      underruns: 1,
      reportedTurns: 3,
    });
    expect(report.jitterSamples).toBe(15);
    expect(report.jitterP50Ms).toBeCloseTo(0);
    expect(report.jitterP99Ms).toBeCloseTo(50);
    expect(report.ownTimeP50Ms).toBe(5);
    expect(report.ownTimeP99Ms).toBe(12);
    // Own time by stage: 1 ms to the first token and 1 ms to the first byte in every turn, the rest to the frame.
    expect(report.ownSplit).toEqual({ llm: [1, 1], tts: [1, 1], frame: [3, 10] });
    expect(report.voiceToVoiceP99Ms).toBe(752);
    expect(report.replyHeardP50Ms).toBe(900);
    expect(report.framesPerCall).toEqual({ mean: 8.5, min: 6 });
    expect(report.cpuSecondsPerCall).toBe(2);
    expect(report.cpuPercent).toBe(40);
    expect(report.rssPeakMb).toBe(120);
    expect(report.rssPerCallMb).toBe(10);
  });

  it('leaves figures undefined rather than zero when nothing was measured', () => {
    const report = summariseRound(input({ results: [call([])] }));
    expect(report.jitterP99Ms).toBeNaN();
    expect(report.ownTimeP99Ms).toBeNaN();
    expect(report.underruns).toBe(0);
  });
});

describe('summariseShare', () => {
  it("takes one transport's pacing and turns, and the whole round's load, CPU and RSS per call", () => {
    const whole = summariseRound(input({ calls: 200, liveSessionsPeak: 200 }));
    const share = summariseShare(
      input({
        calls: 100,
        results: [call([0, 20, 47, 60].map((at) => ({ at, speech: true, answer: 0 })))],
        turns: [turn(20, 31)],
        endedReports: 100,
        liveSessionsPeak: undefined,
      }),
      whole,
    );
    expect(share).toMatchObject({ calls: 100, roundCalls: 200, liveSessionsPeak: 200, endedReports: 100 });
    expect(share.jitterP99Ms).toBeCloseTo(7);
    expect(share.ownTimeP99Ms).toBe(11);
    // 4 CPU seconds and 20 MB above the baseline over the round's 200 calls, not the share's 100.
    expect(share.cpuSecondsPerCall).toBe(0.02);
    expect(share.rssPerCallMb).toBeCloseTo(0.1);
    // The targets go by the round's 200 calls.
    expect(targetVerdicts(share)).toEqual([
      '100 of 200 calls: jitter p99 7.00 ms (target < 5) MISSED',
      '100 of 200 calls: underruns 0 (target 0) met',
    ]);
  });
});

describe('targetVerdicts', () => {
  it("checks the issue's targets: pacing at 200 calls, own time per turn at 100", () => {
    const at200 = summariseRound(
      input({ calls: 200, results: [call([0, 20, 47, 60].map((at) => ({ at, speech: true, answer: 0 })))] }),
    );
    expect(targetVerdicts(at200)).toEqual([
      '200 calls: jitter p99 7.00 ms (target < 5) MISSED',
      '200 calls: underruns 0 (target 0) met',
    ]);
    const at100 = summariseRound(input({ calls: 100, turns: [turn(20, 31)] }));
    expect(targetVerdicts(at100)).toEqual(['100 calls: own time per turn p99 11.0 ms (target < 20) met']);
    expect(targetVerdicts(summariseRound(input({ calls: 20 })))).toEqual([]);
  });
});

import { TurnLatency } from '@vap/messages';
import { meetsTarget } from '../support/figures';
import { ScriptedCallResult, ScriptedTurnRecord } from './scripted-caller';
import {
  counterDelta,
  firstAfter,
  readCounterByLabel,
  speechStop,
  summariseTurnTaking,
  turnTakingFigures,
  turnTakingVerdicts,
} from './turn-taking-report';

/** Agent speech frames every 20 ms over [from, to). */
function speech(from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = from; t < to; t += 20) out.push(t);
  return out;
}

function turn(partial: Partial<ScriptedTurnRecord>): ScriptedTurnRecord {
  return {
    kind: 'complete',
    firstText: 'What time do you open?',
    wholeText: 'What time do you open?',
    pauseMs: 0,
    overlap: null,
    unanswered: false,
    ...partial,
  };
}

function call(index: number, turns: ScriptedTurnRecord[], agentSpeechAt: number[], clearsAt: number[] = []) {
  const result: ScriptedCallResult = {
    callId: `c${index}`,
    callIndex: index,
    turns,
    agentSpeechAt,
    clearsAt,
    agentFrames: agentSpeechAt.length,
    endedBy: 'caller',
  };
  return result;
}

const SPLIT_FIRST = 'I want to book a table for';
const SPLIT_WHOLE = 'I want to book a table for four people tonight.';

function latency(parts: Partial<TurnLatency>): TurnLatency {
  return {
    endpointing_ms: 250,
    stt_final_ms: 260,
    llm_first_token_ms: 262,
    tts_first_byte_ms: 264,
    first_frame_out_ms: 265,
    voice_to_voice_ms: 265,
    ...parts,
  };
}

describe('turn-taking report', () => {
  it('finds the first time after a moment, and where speech stopped in a window', () => {
    expect(firstAfter([1, 2, 3], 2)).toBe(2);
    expect(firstAfter([1, 2, 3], 0)).toBe(0);
    expect(firstAfter([1, 2, 3], 3)).toBe(3);
    const frames = [...speech(0, 1000), ...speech(1400, 2000)];
    expect(speechStop(frames, 500, 990)).toEqual({ stoppedAt: 980, resumedAt: 1400 });
    expect(speechStop(frames, 100, 800)).toBeUndefined();
    // A hole that started before the window is still the one found from it.
    expect(speechStop(frames, 1100, 1200)).toEqual({ stoppedAt: 980, resumedAt: 1400 });
    expect(speechStop(frames, 1500, 1990)).toEqual({ stoppedAt: 1980, resumedAt: undefined });
    expect(speechStop(frames, 2500, 3000)).toBeUndefined();
  });

  it('measures answers to questions, and counts a split sentence answered at its pause as cut off', () => {
    const report = summariseTurnTaking({
      calls: 2,
      results: [
        call(
          0,
          [
            turn({ speechStartAt: 0, speechEndAt: 1000 }),
            // Answered only after the whole sentence.
            turn({
              kind: 'incomplete',
              firstText: SPLIT_FIRST,
              wholeText: SPLIT_WHOLE,
              pauseMs: 400,
              speechStartAt: 6000,
              pauseStartAt: 7000,
              pauseEndAt: 7400,
              speechEndAt: 8000,
            }),
          ],
          [...speech(1300, 5000), ...speech(8900, 12000)],
        ),
        call(
          1,
          [
            turn({ speechStartAt: 0, speechEndAt: 1000 }),
            // The agent spoke in the pause.
            turn({
              kind: 'incomplete',
              firstText: SPLIT_FIRST,
              wholeText: SPLIT_WHOLE,
              pauseMs: 800,
              speechStartAt: 6000,
              pauseStartAt: 7000,
              pauseEndAt: 7800,
              speechEndAt: 8400,
            }),
          ],
          [...speech(1500, 5000), ...speech(7700, 12000)],
        ),
        call(
          2,
          [
            // Nobody heard it, but the model was asked the first half.
            turn({
              kind: 'incomplete',
              firstText: SPLIT_FIRST,
              wholeText: SPLIT_WHOLE,
              pauseMs: 600,
              speechStartAt: 0,
              pauseStartAt: 1000,
              pauseEndAt: 1600,
              speechEndAt: 2000,
            }),
          ],
          speech(2300, 6000),
        ),
      ],
      modelRequests: [
        { call: 1, lastUser: SPLIT_FIRST },
        { call: 2, lastUser: 'i want to book a table for' },
        { call: 0, lastUser: SPLIT_WHOLE },
      ],
      reportedTurns: [
        { latency: latency({}), callerLine: 'complete' },
        { latency: latency({ endpointing_ms: 1500, first_frame_out_ms: 300 }), callerLine: 'incomplete' },
      ],
      events: { early_reply_used: 2 },
    });
    expect(report.completeReply).toEqual({ count: 2, p50: 300, p99: 500 });
    expect(report.incompleteReply.count).toBe(3);
    expect(report.incomplete).toBe(3);
    expect(report.falseCutOffs).toBe(2);
    expect(report.falseCutOffsHeard).toBe(1);
    expect(report.falseCutOffsModel).toBe(2);
    expect(report.falseCutOffRate).toBeCloseTo(2 / 3);
    expect(report.cutOffsByPause).toEqual([
      [300, 500, 1, 0],
      [500, 700, 1, 1],
      [700, 900, 1, 1],
    ]);
    expect(report.endpointingComplete).toEqual({ count: 1, p50: 250, p99: 250 });
    expect(report.endpointingIncomplete).toEqual({ count: 1, p50: 1500, p99: 1500 });
    expect(report.ownTime).toEqual({ count: 2, p50: 5, p99: 40 });
  });

  it('counts a backchannel as interrupting on a clear or on the agent stopping, not otherwise', () => {
    const bc = (index: number, frames: number[], clears: number[] = []) =>
      call(
        index,
        [
          turn({
            speechStartAt: 0,
            speechEndAt: 1000,
            overlap: 'backchannel',
            overlapStartAt: 2100,
            overlapEndAt: 2460,
          }),
        ],
        frames,
        clears,
      );
    const report = summariseTurnTaking({
      calls: 3,
      results: [
        bc(0, speech(1300, 5300)),
        bc(1, [...speech(1300, 2700), ...speech(3500, 6000)]),
        bc(2, speech(1300, 5300), [2600]),
      ],
      modelRequests: [{ call: 1, lastUser: 'Yeah.' }],
      reportedTurns: [],
      events: {},
    });
    expect(report.backchannels).toBe(3);
    expect(report.backchannelsInterrupting).toBe(2);
    expect(report.backchannelInterruptRate).toBeCloseTo(2 / 3);
    expect(report.backchannelsAnswered).toBe(1);
  });

  it('counts noise the agent went quiet for, and whether it was audible again within 3 s of its end', () => {
    const noise = (index: number, frames: number[], clears: number[] = []) =>
      call(
        index,
        [
          turn({
            speechStartAt: 0,
            speechEndAt: 1000,
            overlap: 'noise',
            overlapStartAt: 2100,
            overlapEndAt: 3300,
          }),
        ],
        frames,
        clears,
      );
    const report = summariseTurnTaking({
      calls: 3,
      results: [
        // Talked through.
        noise(0, speech(1300, 5300)),
        // Held at 2900, resumed 700 ms after the noise.
        noise(1, [...speech(1300, 2900), ...speech(4000, 8000)], [2900]),
        // Held and never back.
        noise(2, speech(1300, 2900), [2900]),
      ],
      modelRequests: [],
      reportedTurns: [],
      events: {},
    });
    expect(report.noiseBursts).toBe(3);
    expect(report.held).toBe(2);
    expect(report.recovered).toBe(1);
    expect(report.notRecovered).toBe(1);
    expect(report.resumeAfterNoise).toEqual({ count: 1, p50: 700, p99: 700 });
    const verdicts = turnTakingVerdicts(report);
    expect(verdicts.find((v) => v.includes('not recovered'))).toMatch(/^FAIL/);
  });

  it('holds the figures to their targets', () => {
    const report = summariseTurnTaking({
      calls: 1,
      results: [call(0, [turn({ speechStartAt: 0, speechEndAt: 1000 })], speech(1300, 5300))],
      modelRequests: [],
      reportedTurns: [],
      events: {},
    });
    const figures = turnTakingFigures(report, 'x');
    const p50 = figures.find((f) => f.figure.endsWith('p50') && f.target)!;
    expect(p50.value).toBe(300);
    expect(meetsTarget(p50)).toBe(true);
    // Nothing to measure is no pass.
    const cutOffs = figures.find((f) => f.figure.startsWith('false cut-offs'))!;
    expect(meetsTarget(cutOffs)).toBe(false);
  });

  it('reads a labelled counter from /metrics and the change over a round', () => {
    const text = [
      '# HELP voice_turn_taking_events_total Turn-taking decisions',
      '# TYPE voice_turn_taking_events_total counter',
      'voice_turn_taking_events_total{event="held"} 3',
      'voice_turn_taking_events_total{app="voice",event="backchannel"} 7',
      'voice_turn_taking_events_total_created{event="held"} 1',
      'voice_frame_underruns_total 2',
    ].join('\n');
    const after = readCounterByLabel(text, 'voice_turn_taking_events_total', 'event');
    expect(after).toEqual({ held: 3, backchannel: 7 });
    expect(counterDelta({ held: 1, barge_in: 2 }, after)).toEqual({ held: 2, barge_in: -2, backchannel: 7 });
  });
});

import { FRAME_MS } from '@vap/media';
import {
  callerLineKind,
  normaliseWords,
  PAUSE_MS,
  PIECES,
  planCall,
  transcriptOfPieces,
} from './turn-script';

// Words a sentence does not end on, as the voice service's endpointing judges them (a sample of its list).
const TRAILING = new Set(['for', 'on', 'to', 'is', 'the', 'and', 'with', 'of', 'a']);

describe('turn script', () => {
  it('splits sentences after a word no sentence ends on, and finishes every whole line', () => {
    for (const piece of PIECES) {
      const words = normaliseWords(piece.text).split(' ');
      const last = words[words.length - 1];
      if (piece.role === 'first-half') {
        expect(TRAILING.has(last)).toBe(true);
        expect(piece.text).not.toMatch(/[.?!]$/);
      } else {
        expect(TRAILING.has(last)).toBe(false);
        expect(piece.text).toMatch(/[.?!]$/);
      }
    }
  });

  it('transcribes pieces in the order heard, and names what a line is', () => {
    const first = PIECES.find((p) => p.role === 'first-half')!;
    const rest = PIECES[first.id + PIECES.filter((p) => p.role === 'first-half').length];
    expect(rest.role).toBe('rest');
    const whole = transcriptOfPieces([first.id, rest.id]);
    expect(whole).toBe(`${first.text} ${rest.text}`);
    expect(callerLineKind(whole)).toBe('incomplete');
    expect(callerLineKind(first.text)).toBe('first-half');
    expect(callerLineKind(rest.text.toUpperCase())).toBe('rest');
    expect(callerLineKind('what time do you open')).toBe('complete');
    expect(callerLineKind('Mm-hmm.')).toBe('backchannel');
    expect(callerLineKind('something else')).toBeUndefined();
    expect(transcriptOfPieces([])).toBe('');
  });

  it('gives every call each utterance kind with each sound over the answer, and varies the pauses', () => {
    const pauses = new Set<number>();
    for (let call = 0; call < 50; call++) {
      const plan = planCall(call, 4);
      const combos = plan.map((t) => `${t.kind}+${t.overlap?.kind}`).sort();
      expect(combos).toEqual([
        'complete+backchannel',
        'complete+noise',
        'incomplete+backchannel',
        'incomplete+noise',
      ]);
      const splits = plan.filter((t) => t.kind === 'incomplete');
      expect(new Set(splits.map((t) => t.parts[0].piece)).size).toBe(splits.length);
      for (const turn of plan) {
        if (turn.kind === 'complete') {
          expect(turn.parts).toHaveLength(1);
          expect(turn.pauseFrames).toBe(0);
          expect(PIECES[turn.parts[0].piece].role).toBe('question');
        } else {
          expect(turn.parts.map((p) => PIECES[p.piece].role)).toEqual(['first-half', 'rest']);
          const pauseMs = turn.pauseFrames * FRAME_MS;
          expect(pauseMs).toBeGreaterThanOrEqual(PAUSE_MS.min);
          expect(pauseMs).toBeLessThanOrEqual(PAUSE_MS.max);
          pauses.add(pauseMs);
        }
        const overlap = turn.overlap!;
        const ms = overlap.frames * FRAME_MS;
        if (overlap.kind === 'backchannel') {
          expect(PIECES[overlap.piece].role).toBe('backchannel');
          expect(ms).toBeGreaterThanOrEqual(300);
          expect(ms).toBeLessThanOrEqual(400);
        } else {
          expect(ms).toBeGreaterThanOrEqual(1000);
          expect(ms).toBeLessThanOrEqual(1500);
        }
      }
      // The same index always plays the same script.
      expect(planCall(call, 4)).toEqual(plan);
    }
    expect(pauses.size).toBeGreaterThan(10);
  });
});

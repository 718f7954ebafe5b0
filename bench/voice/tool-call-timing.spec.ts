import { meetsTarget } from '../support/figures';
import { ToolCallTimeline, toolCallFigures } from './tool-call-timing';

describe('ToolCallTimeline', () => {
  it('pairs the four moments of each call by its id, whatever order the calls interleave in', () => {
    const t = new ToolCallTimeline();
    t.streamed('a', 100);
    t.streamed('b', 101);
    t.partnerReceived('b', 104);
    t.partnerReceived('a', 102);
    t.partnerAnswered('a', 110);
    t.partnerAnswered('b', 111);
    t.resultReceived('b', 112);
    t.resultReceived('a', 113);
    const r = t.summarise();
    expect(r).toMatchObject({ toolCalls: 2, complete: 2, notSent: 0, resultNotSeen: 0, unknown: 0 });
    // a: 2 and 3 ms; b: 3 and 1 ms.
    expect([r.dispatchP50Ms, r.dispatchP99Ms, r.dispatchMaxMs]).toEqual([2, 3, 3]);
    expect([r.resumeP50Ms, r.resumeP99Ms, r.resumeMaxMs]).toEqual([1, 3, 3]);
  });

  it('keeps the first sighting of a moment, so a retried request does not shorten the gap', () => {
    const t = new ToolCallTimeline();
    t.streamed('a', 0);
    t.partnerReceived('a', 2);
    t.partnerReceived('a', 250);
    t.partnerAnswered('a', 260);
    t.resultReceived('a', 261);
    expect(t.summarise()).toMatchObject({ dispatchP99Ms: 2, resumeP99Ms: 1 });
  });

  it('counts calls that never reached the partner or whose result never came, and leaves them out', () => {
    const t = new ToolCallTimeline();
    t.streamed('sent', 0);
    t.partnerReceived('sent', 1);
    t.partnerAnswered('sent', 2);
    t.resultReceived('sent', 4);
    t.streamed('discarded', 0);
    t.streamed('lost', 0);
    t.partnerReceived('lost', 1);
    t.partnerAnswered('lost', 2);
    t.partnerReceived('never-streamed', 5);
    const r = t.summarise();
    expect(r).toMatchObject({ toolCalls: 3, complete: 1, notSent: 1, resultNotSeen: 1, unknown: 1 });
    expect([r.dispatchP99Ms, r.resumeP99Ms]).toEqual([1, 2]);
  });

  it('has no figures to show before any call completed', () => {
    const r = new ToolCallTimeline().summarise();
    expect(r.complete).toBe(0);
    expect(r.dispatchP99Ms).toBeNaN();
    expect(r.resumeMaxMs).toBeNaN();
  });
});

describe('toolCallFigures', () => {
  const timeline = () => {
    const t = new ToolCallTimeline();
    for (let i = 0; i < 100; i++) {
      t.streamed(`c${i}`, 0);
      t.partnerReceived(`c${i}`, i === 99 ? 9 : 1);
      t.partnerAnswered(`c${i}`, 20);
      t.resultReceived(`c${i}`, 22);
    }
    return t.summarise();
  };

  it('holds both p99s to under 5 ms at 100 calls', () => {
    const figures = toolCallFigures(timeline(), 100, 'voice tools (100 calls)');
    const targeted = figures.filter((f) => f.target);
    expect(targeted.map((f) => [f.figure, f.value, meetsTarget(f)])).toEqual([
      // The slowest of 100 is the p99 by nearest rank.
      ['tool call -> partner request p99', 1, true],
      ['partner answer -> next model request p99', 2, true],
    ]);
    expect(figures.find((f) => f.figure === 'tool calls measured')?.value).toBe(100);
  });

  it('sets no target at other sizes', () => {
    expect(toolCallFigures(timeline(), 200, 'x').some((f) => f.target)).toBe(false);
  });
});

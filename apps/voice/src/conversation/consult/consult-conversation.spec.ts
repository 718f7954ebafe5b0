import { consultAnswerOf } from './consult-conversation';

describe('consultAnswerOf', () => {
  it("reads the human's first yes or no word", () => {
    expect(consultAnswerOf('Yes, please put them through.')).toBe(true);
    expect(consultAnswerOf('Sure, go ahead')).toBe(true);
    expect(consultAnswerOf("No, sorry, I can't take it right now.")).toBe(false);
    expect(consultAnswerOf("I'm busy")).toBe(false);
    // Whichever comes first decides.
    expect(consultAnswerOf('Yes, no problem')).toBe(true);
    expect(consultAnswerOf('No. Well, okay then')).toBe(false);
  });

  it('is null when the answer is neither (the question is asked again)', () => {
    expect(consultAnswerOf('Who is it?')).toBeNull();
    expect(consultAnswerOf('I know that caller')).toBeNull();
    expect(consultAnswerOf('')).toBeNull();
  });
});

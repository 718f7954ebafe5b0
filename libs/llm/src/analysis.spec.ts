import type { TranscriptEntry } from '@vap/messages';
import { AnalysisInput, analysisMessages, analyzeOffline, parseAnalysisAnswer } from './analysis';
import { LlmError } from './llm-error';

const line = (role: TranscriptEntry['role'], content: string): TranscriptEntry => ({
  role,
  content,
  timestamp: '2026-11-27T10:00:00.000Z',
});

const transcript = [
  line('bot', 'Hi, this is Maya from Acme Health.'),
  line('user', 'I would like to book a checkup. Is Tuesday free?'),
  line('bot', 'Tuesday at ten is free. I have booked it for you. Anything else?'),
];

const input = (over: Partial<AnalysisInput> = {}): AnalysisInput => ({
  transcript,
  variables: { customer_name: 'Ravi' },
  summary: true,
  summaryInstructions: null,
  successRubric: null,
  ...over,
});

describe('analysisMessages', () => {
  it('asks for what the agent wants: the summary with its instructions, the score against the rubric', () => {
    const [system, user] = analysisMessages(
      input({ summaryInstructions: 'Name the day.', successRubric: 'The caller booked a checkup' }),
    );
    expect(system.content).toContain('"summary"');
    expect(system.content).toContain('Name the day.');
    expect(system.content).toContain('"score"');
    expect(system.content).toContain('Success criteria: The caller booked a checkup');
    expect(user.content).toContain('"customer_name":"Ravi"');
    expect(user.content).toContain('Caller: I would like to book a checkup.');
    expect(user.content).toContain('Agent: Tuesday at ten is free.');
  });

  it('leaves out what is not asked', () => {
    const [system] = analysisMessages(input({ summary: false, successRubric: 'booked' }));
    expect(system.content).not.toContain('"summary"');
    const [onlySummary] = analysisMessages(input());
    expect(onlySummary.content).not.toContain('"score"');
  });
});

describe('parseAnalysisAnswer', () => {
  const asked = input({ successRubric: 'booked' });

  it('reads the JSON object, even in a code fence, and rounds the score to a tenth', () => {
    const answer =
      '```json\n{"summary": " Booked Tuesday. ", "score": 8.46, "reasons": "It was booked."}\n```';
    expect(parseAnalysisAnswer(asked, answer)).toEqual({
      summary: 'Booked Tuesday.',
      success: { score: 8.5, reasons: 'It was booked.' },
    });
    expect(parseAnalysisAnswer(asked, '{"summary":"s","score":"7"}').success).toEqual({
      score: 7,
      reasons: '',
    });
  });

  it('joins reasons answered as a list instead of dropping them', () => {
    const answer =
      '{"summary": "s", "score": 6, "reasons": ["Booked the slot", "Never confirmed the time.", 7, {}]}';
    expect(parseAnalysisAnswer(asked, answer).success).toEqual({
      score: 6,
      reasons: 'Booked the slot. Never confirmed the time.',
    });
  });

  it('keeps only what was asked', () => {
    expect(parseAnalysisAnswer(input(), '{"summary":"s","score":3}')).toEqual({
      summary: 's',
      success: null,
    });
  });

  it.each([
    ['no object', 'I think it went well'],
    ['broken JSON', '{"summary": '],
    ['no summary', '{"score": 5}'],
    ['an empty summary', '{"summary": " ", "score": 5}'],
    ['no score', '{"summary": "s"}'],
    ['a score past 10', '{"summary": "s", "score": 11}'],
    ['a score that is no number', '{"summary": "s", "score": "high"}'],
  ])('refuses %s', (_what, answer) => {
    expect(() => parseAnalysisAnswer(asked, answer)).toThrow(LlmError);
  });
});

describe('analyzeOffline', () => {
  it("quotes the caller's first sentence and the agent's last, the same every time", () => {
    const first = analyzeOffline(input());
    expect(first).toEqual({
      summary: 'The caller said: "I would like to book a checkup." The agent ended with: "Anything else?"',
      success: null,
    });
    expect(analyzeOffline(input())).toEqual(first);
  });

  it("scores the share of the rubric's words the conversation used, naming them", () => {
    const { success } = analyzeOffline(
      input({ summary: false, successRubric: 'Booked a checkup for Friday' }),
    );
    // booked, checkup, friday: two of three said.
    expect(success).toEqual({
      score: 6.7,
      reasons: "The conversation covered 2 of the criteria's 3 key words (booked, checkup); not: friday.",
    });
    expect(analyzeOffline(input({ successRubric: 'zebra' })).success?.score).toBe(0);
  });
});

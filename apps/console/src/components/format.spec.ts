import { formatDate, inr, prettyBody, words } from './format';

describe('formatDate', () => {
  it('writes a dash when there is no date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate(undefined)).toBe('—');
    expect(formatDate('')).toBe('—');
  });

  it("writes a timestamp in the reader's locale", () => {
    const iso = '2026-03-01T09:30:00.000Z';
    expect(formatDate(iso)).toBe(new Date(iso).toLocaleString());
    expect(formatDate(iso)).not.toBe(iso);
  });

  it('keeps text that is not a date as it came', () => {
    expect(formatDate('soon')).toBe('soon');
  });
});

describe('inr', () => {
  it('writes rupees with two decimals', () => {
    expect(inr(12.5)).toBe('₹12.50');
    expect(inr(0)).toBe('₹0.00');
    expect(inr(1234.567)).toBe('₹1234.57');
  });

  it('writes a debit with a minus sign before the rupee sign', () => {
    expect(inr(-3)).toBe('−₹3.00');
    expect(inr(-0.25)).toBe('−₹0.25');
  });

  it('writes a dash when there is no amount', () => {
    expect(inr(null)).toBe('—');
    expect(inr(undefined)).toBe('—');
  });
});

describe('words', () => {
  it("reads the API's snake_case values as words", () => {
    expect(words('in_progress')).toBe('in progress');
    expect(words('no_answer_after_ring')).toBe('no answer after ring');
    expect(words('completed')).toBe('completed');
  });
});

describe('prettyBody', () => {
  it('indents JSON', () => {
    expect(prettyBody('{"a":1,"b":[true]}')).toBe('{\n  "a": 1,\n  "b": [\n    true\n  ]\n}');
  });

  it('keeps anything else as it came, and no body as nothing', () => {
    expect(prettyBody('<ok/>')).toBe('<ok/>');
    expect(prettyBody('{"cut')).toBe('{"cut');
    expect(prettyBody('')).toBe('');
    expect(prettyBody(null)).toBe('');
  });
});

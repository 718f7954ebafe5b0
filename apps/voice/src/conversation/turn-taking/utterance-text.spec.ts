import { bargeInOf, completenessOf, isBackchannel, sameWords, wordsOf } from './utterance-text';
import { Endpointer, PAUSE_MS } from './endpointer';

describe('completenessOf', () => {
  it.each([
    ['I would like to book a table.', 'complete'],
    ['Can you help me?', 'complete'],
    ['That is all, thanks!', 'complete'],
    ['मुझे एक टेबल चाहिए।', 'complete'],
  ])('%s is complete', (text, expected) => expect(completenessOf(text)).toBe(expected));

  it.each([
    ['I would like to book a table and', 'incomplete'],
    ['I would like to book a table and.', 'incomplete'],
    ['So um', 'incomplete'],
    ['My number is 98765', 'incomplete'],
    ['My number is 98765.', 'incomplete'],
    ['I need a table for', 'incomplete'],
    ['Well,', 'incomplete'],
    ['Let me think...', 'incomplete'],
    ['mujhe table chahiye aur', 'incomplete'],
  ])('%s is incomplete', (text, expected) => expect(completenessOf(text)).toBe(expected));

  it.each([[''], ['   '], ['book a table tomorrow']])('%j is unknown', (text) =>
    expect(completenessOf(text)).toBe('unknown'),
  );
});

describe('backchannels', () => {
  it.each([
    'yeah',
    'Okay.',
    'mm-hmm',
    'Uh huh',
    'right right',
    'I see.',
    'haan ji',
    'achha',
    'ठीक है',
    'okay got it',
  ])('%s is a backchannel', (text) => {
    expect(isBackchannel(text)).toBe(true);
    expect(bargeInOf(text)).toBe('backchannel');
  });

  it.each([
    'wait',
    'Stop.',
    'hold on',
    'yeah but',
    'okay?',
    'no',
    'yeah yeah yeah okay right',
    'what time is it',
    'I want to change my booking',
  ])('%s interrupts', (text) => {
    expect(isBackchannel(text)).toBe(false);
    expect(bargeInOf(text)).toBe('interrupt');
  });

  it('has no verdict before any word', () => {
    expect(bargeInOf('')).toBe('none');
    expect(bargeInOf(' ... ')).toBe('none');
  });
});

describe('sameWords', () => {
  it('ignores casing and punctuation, not words', () => {
    expect(sameWords('Book a table, please.', 'book a table please')).toBe(true);
    expect(sameWords('Book a table.', 'Book a table for two.')).toBe(false);
    expect(wordsOf("I'm here - ok")).toEqual(["i'm", 'here', 'ok']);
  });
});

describe('Endpointer', () => {
  const endpointer = new Endpointer({ minSilenceMs: 250, maxSilenceMs: 1500 });

  it('waits the minimum after a finished sentence, the maximum after unfinished words', () => {
    expect(endpointer.requiredSilenceMs('Can you book a table?')).toBe(250);
    expect(endpointer.requiredSilenceMs('I want to book a table for')).toBe(1500);
  });

  it('waits a third of the way between when the words are not known', () => {
    expect(endpointer.requiredSilenceMs(null)).toBe(667);
    expect(endpointer.requiredSilenceMs('book a table tomorrow')).toBe(667);
  });

  it('marks a pause no later than the minimum', () => {
    expect(endpointer.pauseMs).toBe(PAUSE_MS);
    expect(new Endpointer({ minSilenceMs: 80, maxSilenceMs: 500 }).pauseMs).toBe(80);
  });
});

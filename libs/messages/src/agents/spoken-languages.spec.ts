import { spokenLanguagesProblem } from './spoken-languages';

describe('spokenLanguagesProblem', () => {
  it.each([
    [[]],
    [['en']],
    [['hinglish']],
    [['te']],
    [['en', 'hi']],
    [['en', 'hinglish']],
    [['hi', 'hinglish']],
    [['en', 'te']],
    [['bn', 'en']],
  ])('accepts %j', (langs) => {
    expect(spokenLanguagesProblem(langs)).toBeNull();
  });

  it.each([
    [['mr', 'te'], /at most one of Hindi and the regional/],
    [['te', 'hi'], /at most one of Hindi and the regional/],
    [['mr', 'hi'], /at most one of Hindi and the regional/],
    [['hinglish', 'te'], /hinglish pairs only with en or hi/],
    [['ta', 'hinglish'], /hinglish pairs only with en or hi/],
    [['en', 'hi', 'hinglish'], /at most 2/],
    [['en', 'en'], /must not repeat/],
    [['fr'], /"fr" is not one of/],
    [['EN'], /"EN" is not one of/],
    [[1], /1 is not one of/],
  ])('rejects %j', (langs, message) => {
    expect(spokenLanguagesProblem(langs)).toMatch(message);
  });

  it('rejects a value that is not an array', () => {
    expect(spokenLanguagesProblem('en')).toMatch(/must be an array/);
    expect(spokenLanguagesProblem(null)).toMatch(/must be an array/);
  });
});

import { MAX_ORIGINS, originProblem, readOrigins } from './embed-origins';

describe('originProblem', () => {
  it.each([
    'https://www.example.com',
    'https://shop.example.com:8443',
    'http://localhost:5173',
    'http://127.0.0.1',
    'http://[::1]:3000',
  ])('accepts %s', (origin) => {
    expect(originProblem(origin)).toBeNull();
  });

  it('refuses what is not an address', () => {
    expect(originProblem('example.com')).toBe(
      'example.com is not an address: write it as https://www.example.com',
    );
  });

  it('refuses a path or a trailing slash, naming the origin to write', () => {
    expect(originProblem('https://www.example.com/')).toBe(
      'https://www.example.com/ must be only scheme://host[:port], without a path or a trailing slash (https://www.example.com)',
    );
    expect(originProblem('https://www.example.com/shop')).toMatch(
      /without a path.*\(https:\/\/www\.example\.com\)/,
    );
  });

  it('refuses http beyond the developer’s own machine', () => {
    expect(originProblem('http://www.example.com')).toBe(
      'http://www.example.com must use https (http only for localhost or 127.0.0.1)',
    );
    expect(originProblem('ftp://files.example.com')).toMatch(/must use https|without a path/);
  });
});

describe('readOrigins', () => {
  it('splits on spaces, commas and lines, and lists each problem in order', () => {
    expect(readOrigins(' https://a.example.com,\nhttp://b.example.com  https://c.example.com/ \n')).toEqual({
      origins: ['https://a.example.com', 'http://b.example.com', 'https://c.example.com/'],
      problems: [
        expect.stringMatching(/^http:\/\/b\.example\.com must use https/),
        expect.stringMatching(/^https:\/\/c\.example\.com\/ must be only/),
      ],
    });
  });

  it('reads nothing from blank text', () => {
    expect(readOrigins(' \n ,')).toEqual({ origins: [], problems: [] });
  });

  it("refuses more origins than the API's limit", () => {
    const at = Array.from({ length: MAX_ORIGINS }, (_, i) => `https://s${i}.example.com`);
    expect(readOrigins(at.join('\n')).problems).toEqual([]);
    expect(readOrigins([...at, 'https://one-more.example.com'].join('\n')).problems).toEqual([
      `At most ${MAX_ORIGINS} origins.`,
    ]);
  });
});

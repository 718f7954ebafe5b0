import { redactedUrl } from './redacted-url';

describe('redactedUrl', () => {
  it('masks the password of a URL and leaves everything else as given', () => {
    expect(redactedUrl('postgres://vap:s3cret@db:5432/x')).toBe('postgres://vap:***@db:5432/x');
    expect(redactedUrl('postgres://postgres@127.0.0.1:5432/x')).toBe('postgres://postgres@127.0.0.1:5432/x');
    expect(redactedUrl('notaurl')).toBe('notaurl');
  });
});

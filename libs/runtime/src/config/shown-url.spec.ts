import { withoutPassword } from './shown-url';

describe('withoutPassword', () => {
  it('masks the password and keeps the rest of the URL', () => {
    expect(withoutPassword('postgres://app:s3cret@db.internal:5432/vap')).toBe(
      'postgres://app:***@db.internal:5432/vap',
    );
  });

  it('returns a URL without a password exactly as given', () => {
    expect(withoutPassword('nats://127.0.0.1:4222')).toBe('nats://127.0.0.1:4222');
    expect(withoutPassword('postgres://app@db/vap')).toBe('postgres://app@db/vap');
  });

  it('returns what is not a URL unchanged', () => {
    expect(withoutPassword('not a url')).toBe('not a url');
  });
});

import { setCsrfToken, v2 } from './api';
import { can, loadSession, Role, Session, signIn, signOut } from './session';

const session = (role: Role): Session => ({
  user: { id: 'usr_1', email: 'a@example.com', name: 'A', role },
  account: { id: 'acc_1', name: 'Acme', reseller: false },
  csrf_token: 'csrf-1',
});

/** Answers each request with the next of `answers`, recording the method, URL, CSRF token and body sent. */
function platform(...answers: [number, unknown][]): [string, string, string | undefined, unknown][] {
  const sent: [string, string, string | undefined, unknown][] = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    sent.push([init?.method ?? 'GET', String(url), headers['x-csrf-token'], init?.body]);
    const [status, data] = answers.shift()!;
    return new Response(
      JSON.stringify(status < 400 ? { success: true, data } : { success: false, error: data }),
      {
        status,
      },
    );
  });
  return sent;
}

afterEach(() => {
  jest.restoreAllMocks();
  setCsrfToken(null);
});

describe('what a role may do', () => {
  it.each([
    ['owner', true, true, true],
    ['admin', true, true, true],
    ['developer', true, false, false],
    ['viewer', false, false, false],
  ] as const)('%s: write %s, manage keys %s, manage the team %s', (role, write, keys, team) => {
    expect(can.write(session(role))).toBe(write);
    expect(can.manageKeys(session(role))).toBe(keys);
    expect(can.manageTeam(session(role))).toBe(team);
  });
});

describe('the session', () => {
  it("signs in and makes the session's CSRF token the one changes carry", async () => {
    const sent = platform([200, session('admin')], [200, {}]);
    await expect(signIn('a@example.com', 'pw')).resolves.toEqual(session('admin'));
    await v2.post('/agent', {});
    expect(sent).toEqual([
      ['POST', '/console/api/session', undefined, JSON.stringify({ email: 'a@example.com', password: 'pw' })],
      ['POST', '/console/api/v2/agent', 'csrf-1', '{}'],
    ]);
  });

  it('answers the accounts to choose from without signing anyone in, then signs in to the one chosen', async () => {
    const accounts = {
      accounts: [
        { id: 'acc_1', name: 'Acme' },
        { id: 'acc_2', name: 'Beta' },
      ],
    };
    const sent = platform([200, accounts], [200, session('viewer')]);
    await expect(signIn('a@example.com', 'pw')).resolves.toEqual(accounts);
    await signIn('a@example.com', 'pw', 'acc_2');
    expect(sent[1][3]).toBe(JSON.stringify({ email: 'a@example.com', password: 'pw', account_id: 'acc_2' }));
  });

  it('loads no session when the platform has none, and forgets the token', async () => {
    setCsrfToken('stale');
    const sent = platform([401, { code: 'UNAUTHORIZED', message: 'Sign in' }], [200, {}]);
    await expect(loadSession()).resolves.toBeNull();
    await v2.post('/agent', {});
    expect(sent[1][2]).toBeUndefined();
  });

  it('forgets the token on sign-out, even when the platform refuses it', async () => {
    setCsrfToken('csrf-1');
    const sent = platform([500, { code: 'INTERNAL_ERROR', message: 'down' }], [200, {}]);
    await expect(signOut()).rejects.toMatchObject({ status: 500 });
    await v2.post('/agent', {});
    expect(sent.map(([method, url, token]) => [method, url, token])).toEqual([
      ['DELETE', '/console/api/session', 'csrf-1'],
      ['POST', '/console/api/v2/agent', undefined],
    ]);
  });
});

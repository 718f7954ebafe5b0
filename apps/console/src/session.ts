// The signed-in user as the console API describes them, and what their role allows: the page hides what the
// role may not do, and the gateway refuses it anyway (403 FORBIDDEN naming the scope).
import { consoleApi, setCsrfToken } from './api.js';

export type Role = 'owner' | 'admin' | 'developer' | 'viewer';

export interface Session {
  user: { id: string; email: string; name: string; role: Role };
  /** `reseller`: the account manages client accounts (the Clients page). */
  account: { id: string; name: string; reseller: boolean };
  csrf_token: string;
}

/** Makes `session` the one the console's requests act in (its CSRF token goes on every change). */
export function adoptSession(session: Session): Session {
  setCsrfToken(session.csrf_token);
  return session;
}

export async function loadSession(): Promise<Session | null> {
  try {
    return adoptSession(await consoleApi.get<Session>('/session'));
  } catch {
    setCsrfToken(null);
    return null;
  }
}

/** The accounts whose user has the email and password signed in with, when there are several. */
export interface AccountChoice {
  accounts: { id: string; name: string }[];
}

/**
 * Signs in (to `accountId`'s user of the email, when given). When the email and password are those of users of
 * several accounts, nobody is signed in yet: the answer lists them, to sign in again with one's id.
 */
export async function signIn(
  email: string,
  password: string,
  accountId?: string,
): Promise<Session | AccountChoice> {
  const answer = await consoleApi.post<Session | AccountChoice>('/session', {
    email,
    password,
    ...(accountId ? { account_id: accountId } : {}),
  });
  if ('accounts' in answer) return answer;
  return adoptSession(answer);
}

export async function signOut(): Promise<void> {
  try {
    await consoleApi.del('/session');
  } finally {
    setCsrfToken(null);
  }
}

export const can = {
  write: (s: Session) => s.user.role !== 'viewer',
  manageKeys: (s: Session) => s.user.role === 'owner' || s.user.role === 'admin',
  manageTeam: (s: Session) => s.user.role === 'owner' || s.user.role === 'admin',
};

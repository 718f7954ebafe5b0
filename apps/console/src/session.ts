// The signed-in user as the console API describes them, and what their role allows: the page hides what the
// role may not do, and the gateway refuses it anyway (403 FORBIDDEN naming the scope).
import { consoleApi, setCsrfToken } from './api.js';

export type Role = 'owner' | 'admin' | 'developer' | 'viewer';

export interface Session {
  user: { id: string; email: string; name: string; role: Role };
  account: { id: string; name: string };
  csrf_token: string;
}

export async function loadSession(): Promise<Session | null> {
  try {
    const session = await consoleApi.get<Session>('/session');
    setCsrfToken(session.csrf_token);
    return session;
  } catch {
    setCsrfToken(null);
    return null;
  }
}

export async function signIn(email: string, password: string, account?: string): Promise<Session> {
  const session = await consoleApi.post<Session>('/session', {
    email,
    password,
    ...(account ? { account } : {}),
  });
  setCsrfToken(session.csrf_token);
  return session;
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

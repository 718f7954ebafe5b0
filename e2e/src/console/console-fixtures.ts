import { adminApi } from '../../support';

/** An operator's invitation of a user to the partner's console: the one-time link it answers. */
export async function inviteUser(
  partnerId: string,
  user: { email: string; name: string; role: string },
): Promise<string> {
  const res = await adminApi(`/partners/${partnerId}/users`, { method: 'POST', body: user });
  if (res.status !== 200) throw new Error(`inviting a user answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.invitation_url as string;
}

// The team: users of the account and their roles; owners and admins invite (the invitation link is shown to
// pass on: there is no email), change roles and remove users.
import { useState } from 'preact/hooks';
import { ApiError, consoleApi } from '../api.js';
import { CopyButton, ErrorNotice, Field, LoadState, useLoad, runAction } from '../components/ui.js';
import { can, Role, Session } from '../session.js';
import { formatDate } from '../components/format.js';

const ROLES: Role[] = ['owner', 'admin', 'developer', 'viewer'];

interface TeamUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
  last_sign_in_at?: string | null;
}

export function TeamPage({ session }: { session: Session }) {
  const users = useLoad(() => consoleApi.get<{ users: TeamUser[] }>('/team/users'), []);
  const [form, setForm] = useState({ email: '', name: '', role: 'developer' as Role });
  const [error, setError] = useState<ApiError | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const manage = can.manageTeam(session);
  const act = (fn: () => Promise<unknown>) => runAction(setError, fn, users.reload);
  const invite = async (e: Event) => {
    e.preventDefault();
    await act(async () => {
      const res = await consoleApi.post<{ invitation_url: string }>('/team/invitations', form);
      setLink(res.invitation_url);
      setForm({ email: '', name: '', role: 'developer' });
    });
  };
  return (
    <>
      <h2>Team</h2>
      <ErrorNotice error={error} />
      {link && (
        <div class="card" role="status">
          <p>Send this one-time link to the person you invited:</p>
          <p class="secret">{link}</p>
          <CopyButton text={link} label="Copy link" />
        </div>
      )}
      {manage && (
        <form class="card" onSubmit={invite}>
          <h3>Invite someone</h3>
          <div class="row">
            <Field label="Email" name="email" error={error}>
              {(p) => (
                <input
                  {...p}
                  type="email"
                  required
                  value={form.email}
                  onInput={(e) => setForm({ ...form, email: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field label="Name" name="name" error={error}>
              {(p) => (
                <input
                  {...p}
                  required
                  value={form.name}
                  onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field label="Role" name="role" error={error}>
              {(p) => (
                <select
                  {...p}
                  value={form.role}
                  onChange={(e) => setForm({ ...form, role: e.currentTarget.value as Role })}
                >
                  {ROLES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit">Invite</button>
          </div>
        </form>
      )}
      <LoadState loaded={users}>
        {(u) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                {manage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {u.users.map((user) => (
                <tr key={user.id}>
                  <td>{user.name}</td>
                  <td>{user.email}</td>
                  <td>
                    {manage && user.id !== session.user.id ? (
                      <select
                        aria-label={`Role of ${user.email}`}
                        value={user.role}
                        onChange={(e) =>
                          act(() =>
                            consoleApi.patch(`/team/users/${user.id}`, { role: e.currentTarget.value }),
                          )
                        }
                      >
                        {ROLES.map((r) => (
                          <option key={r}>{r}</option>
                        ))}
                      </select>
                    ) : (
                      user.role
                    )}
                  </td>
                  <td>{formatDate(user.created_at)}</td>
                  {manage && (
                    <td>
                      {user.id !== session.user.id && (
                        <button
                          class="danger"
                          aria-label={`Remove ${user.email}`}
                          onClick={() =>
                            window.confirm(`Remove ${user.email} from the account?`) &&
                            act(() => consoleApi.del(`/team/users/${user.id}`))
                          }
                        >
                          Remove
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadState>
    </>
  );
}

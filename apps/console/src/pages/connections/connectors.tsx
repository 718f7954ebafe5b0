// Connectors: the kinds of external account the partner's customers connect (an OAuth 2.0 client of the
// partner's, or an API key the customer pastes), listed by name with a create and an edit form. The client
// secret is write-only: the list and the form say whether one is stored, never what it is.
import { useState } from 'preact/hooks';
import { ApiError, v2 } from '../../api.js';
import { formatDate } from '../../components/format.js';
import {
  Checkbox,
  FormErrorNotice,
  PairList,
  RadioGroup,
  Select,
  TextInput,
} from '../../components/inputs.js';
import { CopyButton, ErrorNotice, Loaded, LoadState, runAction } from '../../components/ui.js';
import {
  Connector,
  ConnectorDraft,
  connectorSummary,
  TOKEN_AUTH_METHODS,
  toConnectorBody,
  toConnectorDraft,
} from './connector-model.js';

/** The address to register as the OAuth client's redirect URI (the gateway's, which serves this console). */
const callbackUrl = () => `${window.location.origin}/connect/oauth/callback`;

function ConnectorForm({
  connector,
  onDone,
  onCancel,
}: {
  connector: Connector | null;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const [d, setD] = useState<ConnectorDraft>(() => toConnectorDraft(connector));
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<ConnectorDraft>) => setD((x) => ({ ...x, ...patch }));
  const type = connector?.type ?? d.type;
  const secretSet = connector?.oauth2?.client_secret_set ?? false;
  const title = connector ? `Edit ${connector.name}` : 'New connector';

  const submit = async (e: Event) => {
    e.preventDefault();
    const { body, problems } = toConnectorBody(d, connector);
    if (problems.length) {
      setError(new ApiError(400, 'VALIDATION_ERROR', 'Some fields need attention', problems));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (connector) {
        await v2.patch(`/connectors/${encodeURIComponent(connector.id)}`, body);
        onDone(
          `${d.name.trim()} was saved. A new token, revocation or sign-in server URL drops every customer’s tokens: ` +
            'they show “reconnect required” until the customer completes a new link. Other changes apply from the next request.',
        );
      } else {
        await v2.post('/connectors', body);
        onDone(`${d.name.trim()} was created. Make a connect link for a customer below.`);
      }
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="connector-form-h">
      <h4 id="connector-form-h">{title}</h4>
      <FormErrorNotice error={error} />
      <TextInput
        label="Name"
        name="name"
        error={error}
        required
        hint="Shown to your customers on the connect page, e.g. Acme Calendar; unique on the account"
        value={d.name}
        onChange={(v) => set({ name: v })}
      />
      {connector ? (
        <p class="muted">
          Kind: {connector.type === 'oauth2' ? 'OAuth 2.0' : 'API key'} (a connector’s kind does not change)
        </p>
      ) : (
        <RadioGroup
          legend="How customers connect"
          name="type"
          error={error}
          value={d.type}
          onChange={(v) => set({ type: v as ConnectorDraft['type'] })}
          options={[
            [
              'oauth2',
              'OAuth 2.0 sign-in',
              'The customer signs in at the provider and grants access (authorization code with PKCE)',
            ],
            ['api_key', 'API key', 'The customer pastes a key of theirs on the connect page'],
          ]}
        />
      )}
      {type === 'oauth2' ? (
        <>
          <p class="muted small">
            Register <code>{callbackUrl()}</code>{' '}
            <CopyButton text={callbackUrl()} label="Copy redirect URI" /> as a redirect URI of your OAuth
            client.
          </p>
          <div class="row">
            <TextInput
              label="Authorization URL"
              name="oauth2.authorize_url"
              type="url"
              required
              error={error}
              placeholder="https://auth.example.com/oauth/authorize"
              value={d.authorize_url}
              onChange={(v) => set({ authorize_url: v })}
            />
            <TextInput
              label="Token URL"
              name="oauth2.token_url"
              type="url"
              required
              error={error}
              placeholder="https://auth.example.com/oauth/token"
              value={d.token_url}
              onChange={(v) => set({ token_url: v })}
            />
            <TextInput
              label="Revocation URL (optional)"
              name="oauth2.revocation_url"
              type="url"
              error={error}
              hint="Called to revoke the token when a customer disconnects"
              value={d.revocation_url}
              onChange={(v) => set({ revocation_url: v })}
            />
          </div>
          <TextInput
            label="Scopes"
            name="oauth2.scopes"
            error={error}
            hint="Separated by spaces, as the provider documents them, e.g. calendar.read calendar.write"
            value={d.scopes}
            onChange={(v) => set({ scopes: v })}
          />
          <div class="row">
            <TextInput
              label="Client id"
              name="oauth2.client_id"
              required
              error={error}
              value={d.client_id}
              onChange={(v) => set({ client_id: v })}
            />
            <TextInput
              label={connector ? 'New client secret' : 'Client secret'}
              name="oauth2.client_secret"
              type="password"
              error={error}
              hint={
                connector
                  ? secretSet
                    ? 'A secret is set (never shown). Empty: keep it. A new token, revocation or sign-in server URL needs it again'
                    : 'No secret is set (a public client). Empty: keep it so'
                  : 'Stored encrypted and never shown again. Empty: a public client (PKCE alone)'
              }
              value={d.client_secret}
              onChange={(v) => set({ client_secret: v, remove_client_secret: false })}
            />
            <Select
              label="Token endpoint authentication"
              name="oauth2.token_auth_method"
              error={error}
              value={d.token_auth_method}
              onChange={(v) => set({ token_auth_method: v })}
              options={TOKEN_AUTH_METHODS}
            />
          </div>
          {connector && secretSet && (
            <Checkbox
              label="Remove the stored client secret (a public client)"
              name="remove_client_secret"
              checked={d.remove_client_secret}
              onChange={(v) => set({ remove_client_secret: v, client_secret: v ? '' : d.client_secret })}
            />
          )}
          <PairList
            legend="Extra authorization parameters (optional)"
            keyLabel="Parameter"
            valueLabel="Value"
            name="oauth2.authorize_params"
            error={error}
            hint="Added to the sign-in request, e.g. access_type offline and prompt consent for a refresh token"
            value={d.authorize_params}
            max={10}
            addLabel="Add a parameter"
            onChange={(v) => set({ authorize_params: v })}
          />
        </>
      ) : (
        <div class="row">
          <Select
            label="The key goes in"
            name="api_key.in"
            error={error}
            value={d.key_in}
            onChange={(v) => set({ key_in: v as ConnectorDraft['key_in'] })}
            options={[
              ['header', 'A request header'],
              ['query', 'A query parameter'],
            ]}
          />
          <TextInput
            label={d.key_in === 'header' ? 'Header name' : 'Query parameter name'}
            name="api_key.name"
            required
            error={error}
            value={d.key_name}
            onChange={(v) => set({ key_name: v })}
          />
          <TextInput
            label="Prefix (optional)"
            name="api_key.prefix"
            error={error}
            hint="Put before the key, e.g. “Bearer ” (with its space)"
            value={d.key_prefix}
            onChange={(v) => set({ key_prefix: v })}
          />
        </div>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : connector ? 'Save connector' : 'Create connector'}
      </button>{' '}
      <button type="button" class="secondary" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

export function ConnectorsSection({
  connectors,
  write,
}: {
  connectors: Loaded<{ connectors: Connector[] }>;
  write: boolean;
}) {
  // null: no form; 'new': the create form; else the id of the connector edited.
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const done = (message: string) => {
    setEditing(null);
    setNotice(message);
    connectors.reload();
  };
  const remove = (c: Connector) =>
    window.confirm(
      `Delete the connector ${c.name}? Every customer’s connection to it is deleted too (their tokens are not revoked).`,
    ) &&
    runAction(
      setError,
      () => v2.del(`/connectors/${encodeURIComponent(c.id)}`),
      () => {
        setNotice(`${c.name} was deleted.`);
        connectors.reload();
      },
    );
  return (
    <section aria-labelledby="connectors-h">
      <h3 id="connectors-h">Connectors</h3>
      <p class="muted">
        A connector is an app your customers connect their own account of (a calendar, a CRM). Your custom
        functions then call it with each customer’s credentials.
      </p>
      <p role="status" class="ok">
        {notice}
      </p>
      <ErrorNotice error={error} />
      {write && editing === null && (
        <p>
          <button
            type="button"
            onClick={() => {
              setNotice('');
              setError(null);
              setEditing('new');
            }}
          >
            New connector
          </button>
        </p>
      )}
      {editing === 'new' && (
        <ConnectorForm connector={null} onDone={done} onCancel={() => setEditing(null)} />
      )}
      <LoadState loaded={connectors}>
        {(l) => (
          <table>
            <caption class="sr-only">Connectors</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">How customers connect</th>
                <th scope="col">Client secret</th>
                <th scope="col">Updated</th>
                {write && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {l.connectors.map((c) =>
                editing === c.id ? (
                  <tr key={c.id}>
                    <td colSpan={write ? 5 : 4}>
                      <ConnectorForm connector={c} onDone={done} onCancel={() => setEditing(null)} />
                    </td>
                  </tr>
                ) : (
                  <tr key={c.id}>
                    <td>{c.name}</td>
                    <td>
                      {connectorSummary(c)}
                      {c.oauth2 && c.oauth2.scopes.length > 0 && (
                        <div class="muted small">Scopes: {c.oauth2.scopes.join(' ')}</div>
                      )}
                    </td>
                    <td>{c.oauth2 ? (c.oauth2.client_secret_set ? 'Set' : 'Not set') : '—'}</td>
                    <td>{formatDate(c.updated_at)}</td>
                    {write && (
                      <td>
                        <div class="row">
                          <button
                            type="button"
                            class="secondary"
                            aria-label={`Edit ${c.name}`}
                            onClick={() => {
                              setNotice('');
                              setError(null);
                              setEditing(c.id);
                            }}
                          >
                            Edit
                          </button>
                          <button
                            type="button"
                            class="danger"
                            aria-label={`Delete ${c.name}`}
                            onClick={() => remove(c)}
                          >
                            Delete
                          </button>
                        </div>
                      </td>
                    )}
                  </tr>
                ),
              )}
              {l.connectors.length === 0 && (
                <tr>
                  <td colSpan={write ? 5 : 4} class="muted">
                    No connectors yet.{' '}
                    {write
                      ? 'Create one for each app your customers connect.'
                      : 'An admin or developer can add one.'}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        )}
      </LoadState>
    </section>
  );
}

import { Connector, connectorSummary, toConnectorBody, toConnectorDraft } from './connector-model';

const oauth: Connector = {
  id: 'ctr_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
  name: 'Acme Calendar',
  type: 'oauth2',
  oauth2: {
    authorize_url: 'https://auth.example.com/authorize',
    token_url: 'https://auth.example.com/token',
    revocation_url: null,
    scopes: ['calendar.read', 'calendar.write'],
    client_id: 'client-1',
    client_secret_set: true,
    token_auth_method: 'client_secret_basic',
    authorize_params: { access_type: 'offline' },
  },
  api_key: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('the connector form’s requests', () => {
  it('creates an OAuth 2.0 connector with scopes split on spaces and no secret when none is typed', () => {
    const draft = {
      ...toConnectorDraft(null),
      name: ' Acme Calendar ',
      authorize_url: 'https://auth.example.com/authorize',
      token_url: 'https://auth.example.com/token',
      scopes: ' calendar.read   calendar.write ',
      client_id: 'client-1',
      authorize_params: [
        { key: 'prompt', value: 'consent' },
        { key: '', value: '' },
      ],
    };
    const { body, problems } = toConnectorBody(draft, null);
    expect(problems).toEqual([]);
    expect(body).toEqual({
      name: 'Acme Calendar',
      type: 'oauth2',
      oauth2: {
        authorize_url: 'https://auth.example.com/authorize',
        token_url: 'https://auth.example.com/token',
        revocation_url: null,
        scopes: ['calendar.read', 'calendar.write'],
        client_id: 'client-1',
        token_auth_method: 'client_secret_basic',
        authorize_params: { prompt: 'consent' },
      },
    });
  });

  it('tells missing and non-HTTPS addresses and reserved parameters at their fields before sending', () => {
    const { problems } = toConnectorBody(
      {
        ...toConnectorDraft(null),
        authorize_url: 'http://auth.example.com/authorize',
        authorize_params: [{ key: 'state', value: 'x' }],
      },
      null,
    );
    expect(problems.map((p) => p.field)).toEqual([
      'name',
      'oauth2.authorize_url',
      'oauth2.token_url',
      'oauth2.client_id',
      'oauth2.authorize_params',
    ]);
  });

  it('keeps the stored secret on an edit unless a new one is typed or it is removed', () => {
    const draft = toConnectorDraft(oauth);
    expect(draft.scopes).toBe('calendar.read calendar.write');
    const kept = toConnectorBody(draft, oauth).body;
    expect(kept).not.toHaveProperty('type');
    expect(kept.oauth2).not.toHaveProperty('client_secret');
    expect(
      (toConnectorBody({ ...draft, client_secret: 's3cret' }, oauth).body.oauth2 as never)['client_secret'],
    ).toBe('s3cret');
    expect(
      (toConnectorBody({ ...draft, remove_client_secret: true }, oauth).body.oauth2 as never)[
        'client_secret'
      ],
    ).toBeNull();
  });

  it('makes an API key connector’s placement whole', () => {
    const { body, problems } = toConnectorBody(
      {
        ...toConnectorDraft(null),
        name: 'Acme CRM',
        type: 'api_key',
        key_in: 'query',
        key_name: 'api_key',
        key_prefix: '',
      },
      null,
    );
    expect(problems).toEqual([]);
    expect(body).toEqual({
      name: 'Acme CRM',
      type: 'api_key',
      api_key: { in: 'query', name: 'api_key', prefix: '' },
    });
    expect(
      toConnectorBody({ ...toConnectorDraft(null), name: 'x', type: 'api_key', key_name: 'Bad Name' }, null)
        .problems,
    ).toEqual([{ field: 'api_key.name', message: 'A header or parameter name has no spaces or separators' }]);
    expect(
      connectorSummary({
        ...oauth,
        type: 'api_key',
        oauth2: null,
        api_key: { in: 'header', name: 'X-Key', prefix: '' },
      }),
    ).toBe('API key in the header X-Key');
    expect(connectorSummary(oauth)).toBe('OAuth 2.0 at auth.example.com');
  });
});

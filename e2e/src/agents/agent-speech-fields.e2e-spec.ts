// An agent's speech choices through the gateway: transcriber, fallback_transcriber, fallback_voice_ids and
// dictionary_ids round-trip, are refused field by field, and reach the call's copy of the agent.
import { Client } from 'pg';
import { api, e2eEnv } from '../../support';
import { CallsPartner, callee } from '../calls/call-fixtures';
import { agentBody, createAgent, fieldsOf, newPartner, randomId, Voices } from './agent-fixtures';

const TRANSCRIBER = {
  provider: 'deepgram',
  model: 'nova-3',
  languages: ['en', 'hi'],
  keyterms: ['Ravigo', 'Acme'],
  options: { smart_format: true, endpointing_ms: 300 },
};
const FALLBACK_TRANSCRIBER = { provider: 'assemblyai', options: { end_of_turn_confidence_threshold: 0.6 } };

async function createDictionary(key: string, name = 'Brands'): Promise<string> {
  const res = await api('/dictionaries', {
    key,
    body: { name, entries: [{ word: 'Ravigo', alias: 'ruh vee go' }] },
  });
  if (res.status !== 200)
    throw new Error(`POST /dictionaries answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

describe('agent speech fields', () => {
  let key: string;
  let dictionaryId: string;

  beforeAll(async () => {
    ({ key } = await newPartner('standard'));
    dictionaryId = await createDictionary(key);
  });

  const put = (id: string, body: Record<string, unknown>) =>
    api(`/agent/${id}`, { method: 'PUT', key, body });

  it('answers none of them on an agent created without them', async () => {
    const agent = await createAgent(key);
    expect(agent).toMatchObject({
      transcriber: null,
      fallback_transcriber: null,
      fallback_voice_ids: [],
      dictionary_ids: [],
    });
  });

  it('stores and answers all four, on create and on read', async () => {
    const agent = await createAgent(key, {
      spoken_languages: ['en', 'hi'],
      transcriber: { ...TRANSCRIBER, keyterms: [' Ravigo ', 'ravigo', 'Acme'] },
      fallback_transcriber: FALLBACK_TRANSCRIBER,
      fallback_voice_ids: [Voices.abhilash],
      dictionary_ids: [dictionaryId],
    });
    const expected = {
      transcriber: TRANSCRIBER,
      fallback_transcriber: FALLBACK_TRANSCRIBER,
      fallback_voice_ids: [Voices.abhilash],
      dictionary_ids: [dictionaryId],
    };
    expect(agent).toMatchObject(expected);
    const read = await api(`/agent/${agent.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject(expected);
  });

  it('replaces each whole on update, keeps the ones left out, and clears with null', async () => {
    const agent = await createAgent(key, {
      spoken_languages: ['en', 'hi'],
      transcriber: TRANSCRIBER,
      fallback_voice_ids: [Voices.abhilash],
      dictionary_ids: [dictionaryId],
    });
    const changed = await put(agent.id, { transcriber: { provider: 'sarvam', languages: ['hi'] } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      transcriber: { provider: 'sarvam', languages: ['hi'] },
      fallback_voice_ids: [Voices.abhilash],
      dictionary_ids: [dictionaryId],
    });
    expect(changed.body.data.transcriber).not.toHaveProperty('keyterms');
    const cleared = await put(agent.id, { transcriber: null, fallback_voice_ids: null, dictionary_ids: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({
      transcriber: null,
      fallback_voice_ids: [],
      dictionary_ids: [],
    });
  });

  describe('refuses with 400 naming the field', () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      [
        'unknown provider',
        { transcriber: { provider: 'whisper' } },
        'transcriber.provider',
        /must be one of/,
      ],
      [
        'missing provider',
        { transcriber: { model: 'nova-3' } },
        'transcriber.provider',
        /provider is required/,
      ],
      [
        'too many keyterms',
        { transcriber: { provider: 'deepgram', keyterms: Array.from({ length: 51 }, (_, i) => `k${i}`) } },
        'transcriber.keyterms',
        /at most 50/,
      ],
      [
        'a long keyterm',
        { transcriber: { provider: 'deepgram', keyterms: ['x'.repeat(65)] } },
        'transcriber.keyterms',
        /keyterms\[0\]/,
      ],
      [
        'an option out of bounds',
        { transcriber: { provider: 'deepgram', options: { endpointing_ms: 5000 } } },
        'transcriber.options',
        /endpointing_ms as a number from 10 to 2000/,
      ],
      [
        "another provider's option",
        { transcriber: { provider: 'assemblyai', options: { smart_format: true } } },
        'transcriber.options',
        /not an option of assemblyai/,
      ],
      [
        'languages the agent does not speak',
        { transcriber: { provider: 'deepgram', languages: ['ta'] } },
        'transcriber.languages',
        /only the agent's spoken_languages \(en\)/,
      ],
      [
        'a fallback transcriber without a transcriber',
        { fallback_transcriber: { provider: 'openai' } },
        'fallback_transcriber',
        /needs a transcriber/,
      ],
      [
        'a fallback transcriber like the transcriber',
        { transcriber: { provider: 'openai' }, fallback_transcriber: { provider: 'openai' } },
        'fallback_transcriber',
        /must differ/,
      ],
      [
        'more than 3 fallback voices',
        { fallback_voice_ids: [randomId(), randomId(), randomId(), randomId()] },
        'fallback_voice_ids',
        /at most 3/,
      ],
      [
        'a voice twice',
        { fallback_voice_ids: [Voices.abhilash, Voices.abhilash] },
        'fallback_voice_ids',
        /repeat/,
      ],
      [
        'the voice itself',
        { fallback_voice_ids: [Voices.neerja] },
        'fallback_voice_ids',
        /fallback_voice_ids\[0\] is the agent's own voice_id/,
      ],
      [
        'a voice outside the catalog',
        { fallback_voice_ids: [Voices.abhilash, randomId()] },
        'fallback_voice_ids',
        /fallback_voice_ids\[1\] is not a voice of the catalog/,
      ],
      [
        'a retired voice',
        { fallback_voice_ids: [Voices.retired] },
        'fallback_voice_ids',
        /not a voice of the catalog/,
      ],
      [
        "a voice above the account's tier",
        { fallback_voice_ids: [Voices.priya] },
        'fallback_voice_ids',
        /fallback_voice_ids\[0\] is a premium voice/,
      ],
      [
        'a dictionary that does not exist',
        { dictionary_ids: [randomId()] },
        'dictionary_ids',
        /does not exist/,
      ],
      [
        'more than 5 dictionaries',
        { dictionary_ids: Array.from({ length: 6 }, () => randomId()) },
        'dictionary_ids',
        /at most 5/,
      ],
    ];

    it.each(cases)('%s', async (_title, fields, field, message) => {
      const res = await api('/agent', { method: 'POST', key, body: agentBody(fields) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body)).toEqual([field]);
      expect(res.body.error.details[0].message).toMatch(message);
    });
  });

  it("refuses another account's dictionary as one that does not exist", async () => {
    const other = await newPartner('standard');
    const foreign = await createDictionary(other.key, 'Theirs');
    const res = await api('/agent', { method: 'POST', key, body: agentBody({ dictionary_ids: [foreign] }) });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'dictionary_ids', message: expect.stringMatching(/dictionary_ids\[0\] .* does not exist/) },
    ]);
  });

  it('judges transcriber languages against spoken_languages changed later', async () => {
    const agent = await createAgent(key, {
      spoken_languages: ['en', 'hi'],
      transcriber: { provider: 'deepgram', languages: ['hi'] },
    });
    const res = await put(agent.id, { spoken_languages: ['en'] });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(['transcriber.languages']);
  });

  it('keeps fallback voices the account had while only other fields change', async () => {
    const premium = await newPartner('premium');
    const agent = await createAgent(premium.key, { fallback_voice_ids: [Voices.priya] });
    const res = await api(`/agent/${agent.id}`, {
      method: 'PUT',
      key: premium.key,
      body: { fallback_voice_ids: [Voices.priya, Voices.abhilash] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.fallback_voice_ids).toEqual([Voices.priya, Voices.abhilash]);
  });

  it("reaches the call's copy of the agent", async () => {
    const partner = await CallsPartner.create();
    const dictionary = await createDictionary(partner.generalKey);
    const agent = await partner.createAgent({
      spoken_languages: ['en', 'hi'],
      transcriber: TRANSCRIBER,
      fallback_transcriber: FALLBACK_TRANSCRIBER,
      fallback_voice_ids: [Voices.abhilash],
      dictionary_ids: [dictionary],
    });
    const started = await partner.start({ agent_id: agent.id, to_number: callee('43') });
    expect(started.status).toBe(200);
    const db = new Client({ connectionString: e2eEnv().databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT agent_settings FROM calls.calls WHERE id = $1', [
        started.body.data.call_id,
      ]);
      expect(rows[0].agent_settings).toMatchObject({
        transcriber: TRANSCRIBER,
        fallbackTranscriber: FALLBACK_TRANSCRIBER,
        fallbackVoiceIds: [Voices.abhilash],
        dictionaryIds: [dictionary],
      });
    } finally {
      await db.end();
    }
  });
});

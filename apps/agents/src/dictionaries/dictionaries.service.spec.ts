// Dictionaries against a real Postgres: what a call's speech takes of them (dictionaryTerms), tenancy, the
// per-account limit and the delete refused while a live agent uses one.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '@vap/messages';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { AgentsConfig } from '../config/agents.config';
import { agentsDataSourceOptions } from '../database/data-source';
import { DictionariesService, dictionaryTerms } from './dictionaries.service';

jest.setTimeout(60_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('DictionariesService', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let service: DictionariesService;
  const partner = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_dictionaries');
    const options = agentsDataSourceOptions(Object.assign(new AgentsConfig(), { DATABASE_URL: db.url }));
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
    service = new DictionariesService(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it("gives a call the words of the agent's dictionaries in the agent's order, the account's only", async () => {
    const brands = await service.create(partner, {
      name: 'Brands',
      entries: [{ word: 'Ravigo', alias: 'ruh vee go' }, { word: 'Acme' }],
    });
    const names = await service.create(partner, {
      name: 'Names',
      entries: [
        { word: 'Nguyen', ipa: 'ŋwiən' },
        { word: 'acme', alias: 'ack me' },
      ],
    });
    const foreign = await service.create(randomUUID(), { name: 'Theirs', entries: [{ word: 'Secret' }] });
    const terms = await dictionaryTerms(dataSource.manager, partner, [
      names.id,
      brands.id,
      foreign.id,
      randomUUID(),
    ]);
    expect(terms).toEqual({
      keyterms: ['Nguyen', 'acme', 'Ravigo'],
      pronunciations: [
        { word: 'Nguyen', ipa: 'ŋwiən' },
        { word: 'acme', alias: 'ack me' },
        { word: 'Ravigo', alias: 'ruh vee go' },
      ],
    });
    expect(await dictionaryTerms(dataSource.manager, partner, [])).toEqual({
      keyterms: [],
      pronunciations: [],
    });
  });

  it("names each id that is not the account's", async () => {
    const own = await service.create(partner, { name: 'Own' });
    const foreign = await service.create(randomUUID(), { name: 'Theirs' });
    const missing = randomUUID();
    const problems = await dataSource.transaction((em) =>
      service.checkOwn(em, partner, [own.id, foreign.id, missing]),
    );
    expect(problems).toEqual([
      {
        field: 'dictionary_ids',
        message: `dictionary_ids[1] (${foreign.id}) does not exist: it is not a dictionary of this account`,
      },
      {
        field: 'dictionary_ids',
        message: `dictionary_ids[2] (${missing}) does not exist: it is not a dictionary of this account`,
      },
    ]);
  });

  it('refuses the 51st dictionary of an account, even when created at once', async () => {
    const account = randomUUID();
    const results = await Promise.allSettled(
      Array.from({ length: 55 }, (_, i) => service.create(account, { name: `d${i}` })),
    );
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(results.length - refused.length).toBe(50);
    for (const r of refused) expect((r.reason as AppError).code).toBe(ErrorCode.LIMIT_REACHED);
  });

  it('refuses to delete a dictionary a live agent lists, and deletes it once none does', async () => {
    const used = await service.create(partner, { name: 'Used' });
    const agentId = randomUUID();
    const projectId = randomUUID();
    await dataSource.query(
      `INSERT INTO agents.projects (id, partner_id, name, is_default) VALUES ($1, $2, 'Default project', true)`,
      [projectId, partner],
    );
    await dataSource.query(
      `INSERT INTO agents.agents (id, partner_id, project_id, agent_name, prompt, agent_type, voice_id, spoken_languages,
         voicemail_detection_enabled, screener_handling_enabled, enable_recording, kb_include_summaries,
         kb_enable_llm_processing, end_call_enabled, transfer_enabled, user_idle_enabled, extraction_enabled,
         extraction_config, background_audio_volume, webhooks_include_account_endpoints, dictionary_ids)
       VALUES ($1, $2, $3, 'Speaker', 'p', 'outbound', '72158370-d269-49a5-ae65-8f33fe3b890b', '{}', true, false,
         true, false, false, true, false, true, true, '{"keys": []}', 0.3, true, ARRAY[$4]::uuid[])`,
      [agentId, partner, projectId, used.id],
    );
    const refused = await service.remove(partner, used.id).catch((e: unknown) => e);
    expect((refused as AppError).code).toBe(ErrorCode.CONFLICT);
    expect((refused as AppError).message).toContain(`Speaker (${agentId})`);
    await dataSource.query(`UPDATE agents.agents SET deleted_at = now() WHERE id = $1`, [agentId]);
    expect(await service.remove(partner, used.id)).toEqual({ id: used.id, message: 'Dictionary deleted' });
    const gone = await service.get(partner, used.id).catch((e: unknown) => e);
    expect((gone as AppError).code).toBe(ErrorCode.NOT_FOUND);
  });
});

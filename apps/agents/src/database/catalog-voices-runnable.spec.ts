// The catalog as the migrations leave it, on a real Postgres: every voice it offers can be spoken by an engine
// the platform has (the offline engine, local speech or a speech plugin of libs/speech), and agents that had a
// voice that could never run (the first seed's Google voices) were moved to the offline voice of the same
// language and gender.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { migrationsIn, runMigrations } from '@vap/persistence';
import { espeakVoiceFor, parseEspeakVoices, ttsCapabilities } from '@vap/speech';
import { LOCAL_VOICE_LANGUAGES } from '@vap/speech/testing';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { AgentsConfig } from '../config/agents.config';
import { agentsDataSourceOptions } from './data-source';
import { SEEDED_VOICES } from './migrations/1765100030000-catalog-voices';
import {
  GOOGLE_VOICE_IDS,
  RetireGoogleVoices1765500400000,
} from './migrations/1765500400000-retire-google-voices';

jest.setTimeout(60_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

const [AOEDE, CHARON, ASHA] = GOOGLE_VOICE_IDS;
const offlineVoice = (providerVoiceId: string) => SEEDED_VOICES.find((v) => v[4] === providerVoiceId)![0];
const OFFLINE_EN_FEMALE = offlineVoice('offline-en-female');
const OFFLINE_EN_MALE = offlineVoice('offline-en-male');
/** ElevenLabs' Priya, of the first seed: a voice that stays. */
const PRIYA = '254b0c4e-010c-4759-882c-9cbc43435cc5';

describe('the catalog the migrations leave', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const agents: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_catalog_runnable');
    const options = agentsDataSourceOptions(Object.assign(new AgentsConfig(), { DATABASE_URL: db.url }));
    // The schema as it was before the Google voices were retired, with agents that use them.
    const before = migrationsIn(join(__dirname, 'migrations')).filter(
      (m) => m !== RetireGoogleVoices1765500400000,
    );
    await runMigrations({ ...options, migrations: before });
    const seeding = await new DataSource({ ...options, migrations: [] }).initialize();
    const partner = randomUUID();
    const project = randomUUID();
    await seeding.query(`INSERT INTO agents.projects (id, partner_id, name) VALUES ($1, $2, 'p')`, [
      project,
      partner,
    ]);
    const agent = async (name: string, voice: string, fallbacks: string[]) => {
      agents[name] = randomUUID();
      await seeding.query(
        `INSERT INTO agents.agents (id, partner_id, project_id, agent_name, prompt, agent_type, voice_id, fallback_voice_ids)
         VALUES ($1, $2, $3, $4, 'Be brief.', 'outbound', $5, $6::uuid[])`,
        [agents[name], partner, project, name, voice, fallbacks],
      );
    };
    await agent('aoede', AOEDE, [CHARON, OFFLINE_EN_MALE, PRIYA]);
    await agent('asha', ASHA, []);
    await agent('priya', PRIYA, [AOEDE, OFFLINE_EN_FEMALE]);
    await seeding.destroy();
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('offers only voices an engine of the platform can speak', async () => {
    const active: { provider: string; display_name: string }[] = await dataSource.query(
      `SELECT provider, display_name FROM agents.voices WHERE status = 'active'`,
    );
    expect(active.length).toBeGreaterThan(0);
    // The offline engine and local speech (eSpeak NG) are the platform's own, with no plugin of a provider.
    const unspeakable = active.filter(
      (v) => v.provider !== 'offline' && v.provider !== 'local' && !ttsCapabilities(v.provider),
    );
    expect(unspeakable).toEqual([]);
  });

  it("offers local speech voices that are this installation's eSpeak NG voices, in every Indian language", async () => {
    const local: { provider_voice_id: string; language: string; preview_text: string }[] =
      await dataSource.query(
        `SELECT provider_voice_id, language, preview_text FROM agents.voices WHERE provider = 'local' AND status = 'active'`,
      );
    const known = parseEspeakVoices(
      execFileSync('espeak-ng', ['--voices'], { encoding: 'utf8' }),
      execFileSync('espeak-ng', ['--voices=variant'], { encoding: 'utf8' }),
    );
    // espeakVoiceFor takes a voice's own id only when the installation has that voice.
    expect(
      local.filter(
        (v) =>
          espeakVoiceFor({ providerVoiceId: v.provider_voice_id, language: v.language }, known) !==
          v.provider_voice_id,
      ),
    ).toEqual([]);
    expect(new Set(local.map((v) => v.language))).toEqual(new Set(LOCAL_VOICE_LANGUAGES));
  });

  it('retires the Google voices, keeping their rows', async () => {
    const rows: { id: string; status: string }[] = await dataSource.query(
      `SELECT id, status FROM agents.voices WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [GOOGLE_VOICE_IDS],
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.status).toBe('retired');
  });

  it('moves agents off them to the offline voice of the same language and gender, fallbacks kept in order', async () => {
    const voices = async (name: string) =>
      (
        (await dataSource.query(`SELECT voice_id, fallback_voice_ids FROM agents.agents WHERE id = $1`, [
          agents[name],
        ])) as { voice_id: string; fallback_voice_ids: string[] }[]
      )[0];
    // Charon becomes offline-en-male, which the list already holds: it appears once, where it came first.
    expect(await voices('aoede')).toEqual({
      voice_id: OFFLINE_EN_FEMALE,
      fallback_voice_ids: [OFFLINE_EN_MALE, PRIYA],
    });
    expect(await voices('asha')).toEqual({ voice_id: OFFLINE_EN_FEMALE, fallback_voice_ids: [] });
    expect(await voices('priya')).toEqual({ voice_id: PRIYA, fallback_voice_ids: [OFFLINE_EN_FEMALE] });
  });
});

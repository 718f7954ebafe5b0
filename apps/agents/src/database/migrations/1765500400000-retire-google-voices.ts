import { MigrationInterface, QueryRunner } from 'typeorm';

/** The first seed's Google voices (Aoede, Charon, and the already retired Asha): no Google speech plugin exists. */
export const GOOGLE_VOICE_IDS = [
  '26bb7dbd-2d1c-4af0-953e-7c2a26a2c0bd',
  '0316909e-3bbb-49ea-a894-8c893b618676',
  '2eae05cf-96d0-4c5f-94c2-8c2e7c26847f',
];

/** Which of them the catalog offered before this migration (down offers them again). */
const OFFERED_BEFORE = GOOGLE_VOICE_IDS.slice(0, 2);

/**
 * The first seed offered Google voices as development stand-ins, but the platform has no Google speech plugin and
 * accepts no Google key: they could never be spoken by Google. They are retired (off the catalog), and every agent
 * that used one, as its voice or a fallback voice, moves to the offline voice of the same language and gender (the
 * engine that was standing in for them), so those agents keep working and say so in GET /agent/{id}. Retired rows
 * stay so that past references resolve.
 */
export class RetireGoogleVoices1765500400000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // The nearest offline voice per Google voice: same language and gender, else same language, else English.
    await q.query(`
      CREATE TEMPORARY TABLE google_voice_moves AS
      SELECT DISTINCT ON (g.id) g.id AS from_id, o.id AS to_id
        FROM agents.voices g
        JOIN agents.voices o ON o.provider = 'offline' AND o.status = 'active'
       WHERE g.provider = 'google'
       ORDER BY g.id, (o.language = g.language) DESC, (o.gender = g.gender) DESC,
                (o.language LIKE 'en-%') DESC, o.id`);
    await q.query(`
      UPDATE agents.agents a SET voice_id = m.to_id, updated_at = now()
        FROM google_voice_moves m WHERE a.voice_id = m.from_id`);
    // Fallbacks keep their order; a moved fallback that repeats another, or the agent's own voice, is dropped.
    await q.query(`
      UPDATE agents.agents a SET updated_at = now(), fallback_voice_ids = ARRAY(
        SELECT s.id FROM (
          SELECT DISTINCT ON (COALESCE(m.to_id, f.id)) COALESCE(m.to_id, f.id) AS id, f.ord
            FROM unnest(a.fallback_voice_ids) WITH ORDINALITY AS f(id, ord)
            LEFT JOIN google_voice_moves m ON m.from_id = f.id
           ORDER BY COALESCE(m.to_id, f.id), f.ord) s
         WHERE s.id <> a.voice_id
         ORDER BY s.ord)
       WHERE a.fallback_voice_ids && ARRAY(SELECT from_id FROM google_voice_moves)`);
    await q.query(
      `UPDATE agents.voices SET status = 'retired', updated_at = now() WHERE provider = 'google' AND status <> 'retired'`,
    );
    await q.query(`DROP TABLE google_voice_moves`);
  }

  async down(q: QueryRunner): Promise<void> {
    // The catalog offers them again; agents that were moved keep their offline voice.
    await q.query(
      `UPDATE agents.voices SET status = 'active', updated_at = now() WHERE id = ANY($1::uuid[])`,
      [OFFERED_BEFORE],
    );
  }
}

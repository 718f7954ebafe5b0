import { EntityManager } from 'typeorm';
import { tableOf } from '@vap/persistence';

const BATCH = 500;

/** Replaces the chunks of one link; the tsvector column is computed by Postgres on insert. */
export async function replaceChunks(
  em: EntityManager,
  link: { id: string; partnerId: string; agentId: string; documentId: string },
  chunks: string[],
): Promise<void> {
  await em.query(`DELETE FROM ${tableOf(em, 'kb_chunks')} WHERE link_id = $1`, [link.id]);
  for (let offset = 0; offset < chunks.length; offset += BATCH) {
    await em.query(
      `INSERT INTO ${tableOf(em, 'kb_chunks')} (id, link_id, partner_id, agent_id, document_id, chunk_index, content)
       SELECT gen_random_uuid(), $1, $2, $3, $4, $5 + t.ord - 1, t.content
       FROM unnest($6::text[]) WITH ORDINALITY AS t(content, ord)`,
      [link.id, link.partnerId, link.agentId, link.documentId, offset, chunks.slice(offset, offset + BATCH)],
    );
  }
}

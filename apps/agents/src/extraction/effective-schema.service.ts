import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EffectiveExtractionSchema } from '@vap/messages';
import { findAgent } from '../agents/agent-locks';
import { setsAttachedTo } from './extraction-graph';

/** What post-call extraction runs for an agent: its sets' keys, then its inline keys. */
@Injectable()
export class EffectiveSchemaService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async forAgent(partnerId: string, agentId: string): Promise<EffectiveExtractionSchema> {
    // One snapshot, so a concurrent move of keys from inline to a set is seen entirely or not at all.
    return this.dataSource.transaction('REPEATABLE READ', async (em) => {
      const agent = await findAgent(em, partnerId, agentId);
      const sets = (await setsAttachedTo(em, [agent.id])).get(agent.id) ?? [];
      return {
        agentId: agent.id,
        extractionEnabled: agent.extractionEnabled,
        keys: [
          ...sets.flatMap((s) => s.keys.map((k) => ({ ...k, source: 'set' as const, setId: s.id }))),
          ...agent.extractionConfig.keys.map((k) => ({ ...k, source: 'inline' as const, setId: null })),
        ],
      };
    });
  }
}

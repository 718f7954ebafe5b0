import { EntityManager } from 'typeorm';

/**
 * Serialises changes to one scope (the account-wide endpoints of a partner, or one agent's endpoints and
 * fan-out flag) for the rest of the transaction: the per-scope limit and the flag rule are judged on counts
 * that no concurrent transaction can change underneath.
 */
export async function lockScope(em: EntityManager, partnerId: string, agentId: string | null): Promise<void> {
  const key = agentId ? `webhooks:agent:${agentId}` : `webhooks:account:${partnerId}`;
  await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}

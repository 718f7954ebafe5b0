import { EntityManager } from 'typeorm';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { originOf } from '../common/url-origin';
import { recordConnectionEvent } from './connection-events';
import { Connector, OAuth2Settings } from './entities/connector.entity';
import { CustomerConnection } from './entities/customer-connection.entity';

/** What a connection that lost its tokens to a connector change says (its `error`). */
export const RECONNECT_MESSAGE =
  'The connector’s token, revocation or authorization URL changed: the customer must connect again with a new link';

/**
 * Whether a change of settings sends the client secret or customers' tokens somewhere new: a new token_url
 * (code exchanges and refreshes), a new revocation_url (revocations on disconnect; removing it sends nothing), or
 * an authorize_url on another origin (another authorization server issued, or would issue, the codes).
 */
export function credentialEndpointsMoved(before: OAuth2Settings, after: OAuth2Settings): boolean {
  return (
    before.token_url !== after.token_url ||
    (after.revocation_url !== null && before.revocation_url !== after.revocation_url) ||
    originOf(before.authorize_url) !== originOf(after.authorize_url)
  );
}

/**
 * Every customer's connection to the connector (locked, in the connector change's transaction) loses its tokens,
 * its outstanding link and authorization attempt, and becomes reconnect_required with one
 * customer_connection.updated each: nothing issued for the old server goes to the new one, and a link or state
 * issued for the old authorization server no longer opens.
 */
export async function requireReconnect(
  em: EntityManager,
  outbox: OutboxService,
  connector: Connector,
): Promise<number> {
  const table = tableOf(em, CustomerConnection);
  // An UPDATE answers [rows, count].
  const [rows] = (await em.query(
    `UPDATE ${table}
        SET status = 'reconnect_required', error = $2,
            access_token_sealed = NULL, refresh_token_sealed = NULL, token_expires_at = NULL,
            link_token_hash = NULL, link_expires_at = NULL,
            state_hash = NULL, state_binding_hash = NULL, state_expires_at = NULL, verifier_sealed = NULL,
            updated_at = now()
      WHERE connector_id = $1
      RETURNING id, partner_id, customer_id`,
    [connector.id, RECONNECT_MESSAGE],
  )) as [{ id: string; partner_id: string; customer_id: string }[], number];
  for (const row of rows) {
    const connection = Object.assign(new CustomerConnection(), {
      id: row.id,
      partnerId: row.partner_id,
      customerId: row.customer_id,
    });
    await recordConnectionEvent(outbox, em, connection, connector, 'reconnect_required', 'connector_changed');
  }
  return rows.length;
}

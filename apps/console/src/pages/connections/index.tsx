// Customer connections: the connectors the account offers (OAuth 2.0 clients or API keys) and its customers,
// each with its connections to them and a hosted connect link to send.
import { allPages, v2 } from '../../api.js';
import { useLoad } from '../../components/ui.js';
import { can, Session } from '../../session.js';
import type { Connector } from './connector-model.js';
import { ConnectorsSection } from './connectors.js';
import { CustomersSection } from './customers.js';

/** Every connector of the account (an account has at most 50), by name. */
const loadConnectors = () =>
  allPages(async (cursor) => {
    const page = await v2.get<{ connectors: Connector[]; next_cursor: string | null }>('/connectors', {
      cursor,
      limit: 100,
    });
    return { items: page.connectors, next: page.next_cursor };
  }).then((connectors) => ({ connectors: [...connectors].sort((a, b) => a.name.localeCompare(b.name)) }));

export function ConnectionsPage({ session }: { session: Session }) {
  const connectors = useLoad(loadConnectors, []);
  const write = can.write(session);
  return (
    <>
      <h2>Customer connections</h2>
      <p class="muted">
        Let your customers connect their own accounts (a calendar, a CRM) so that your agents’ custom
        functions act in them: set up a connector once, then send each customer a connect link.
      </p>
      <ConnectorsSection connectors={connectors} write={write} />
      <CustomersSection connectors={connectors.data?.connectors ?? []} write={write} />
    </>
  );
}

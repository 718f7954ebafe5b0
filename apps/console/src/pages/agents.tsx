// Agents: the list (with voice and project names), and an agent's page: the builder (every setting in
// sections, see agent-builder/) and the panels to try it (agent-try-it), and its Tests tab (tests/).
import { useState } from 'preact/hooks';
import { v2 } from '../api.js';
import { loadProjects } from '../components/names.js';
import { ErrorNotice, LoadState, useLoad, Pager } from '../components/ui.js';
import { TabList, TabPanel } from '../components/tabs.js';
import { linkProps, navigate } from '../router.js';
import { can, Session } from '../session.js';
import { AgentBuilder } from './agent-builder/builder.js';
import { Agent } from './agent-builder/model.js';
import { AgentTryIt } from './agent-try-it.js';
import { AgentTestsTab } from './tests/tests-tab.js';
import { formatDate } from '../components/format.js';

interface AgentList {
  agents: Agent[];
  next_cursor: string | null;
}

export function AgentsPage({ session }: { session: Session }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const [search, setSearch] = useState('');
  const list = useLoad(() => v2.get<AgentList>('/agent', { cursor, search, limit: 25 }), [cursor, search]);
  const projectList = useLoad(loadProjects, []);
  const projects = new Map((projectList.data ?? []).map((p) => [p.id, p.name]));
  return (
    <>
      <div class="row">
        <h2>Agents</h2>
        {can.write(session) && (
          <a class="button" {...linkProps('/agents/new')}>
            New agent
          </a>
        )}
      </div>
      <div class="field">
        <label for="agent-search">Search by name</label>
        <input
          id="agent-search"
          type="search"
          value={search}
          onChange={(e) => {
            setCursor(undefined);
            setSearch(e.currentTarget.value);
          }}
        />
      </div>
      <LoadState loaded={list}>
        {(page) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Voice</th>
                  <th scope="col">Project</th>
                  <th scope="col">Custom functions</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {page.agents.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <a {...linkProps(`/agents/${a.id}`)}>{a.agent_name}</a>
                    </td>
                    <td>{a.agent_type}</td>
                    <td>{a.voice?.display_name ?? '—'}</td>
                    <td>{projects.get(a.project_id) ?? '—'}</td>
                    <td>
                      {(a.custom_functions ?? []).map((f: { name: string }) => f.name).join(', ') || '—'}
                    </td>
                    <td>{formatDate(a.updated_at)}</td>
                  </tr>
                ))}
                {page.agents.length === 0 && (
                  <tr>
                    <td colSpan={6} class="muted">
                      No agents yet.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
            <Pager cursor={cursor} next={page.next_cursor} onPage={setCursor} />
          </>
        )}
      </LoadState>
    </>
  );
}

/** The agent's page: its settings (with the panels to try it) and, once it exists, its tests (`/agents/{id}/tests`). */
export function AgentFormPage({
  session,
  id,
  rest = [],
}: {
  session: Session;
  id: string | null;
  /** The path after the agent's id: ['tests'] or ['tests', runId]. */
  rest?: string[];
}) {
  const agent = useLoad(
    () => (id ? v2.get<Agent>(`/agent/${encodeURIComponent(id)}`) : Promise.resolve(null)),
    [id],
  );
  if (id && agent.error && !agent.data) return <ErrorNotice error={agent.error} />;
  if (id && !agent.data) return <p class="muted">Loading…</p>;
  const tab = id && rest[0] === 'tests' ? 'tests' : 'settings';
  const settings = (
    <>
      <AgentBuilder key={id ?? 'new'} session={session} agent={agent.data} onChange={agent.reload} />
      {id && agent.data && <AgentTryIt session={session} agent={agent.data} />}
    </>
  );
  return (
    <>
      <div class="row">
        <h2>{id ? agent.data!.agent_name : 'New agent'}</h2>
        <a {...linkProps('/agents')}>All agents</a>
      </div>
      {id ? (
        <>
          <TabList
            label="Agent"
            idPrefix="agent-page"
            tabs={[
              { id: 'settings', label: 'Settings' },
              { id: 'tests', label: 'Tests' },
            ]}
            active={tab}
            onSelect={(t) => navigate(`/agents/${id}${t === 'tests' ? '/tests' : ''}`)}
          />
          <TabPanel id="settings" active={tab} idPrefix="agent-page">
            {settings}
          </TabPanel>
          <TabPanel id="tests" active={tab} idPrefix="agent-page">
            {tab === 'tests' && <AgentTestsTab session={session} agentId={id} runId={rest[1]} />}
          </TabPanel>
        </>
      ) : (
        settings
      )}
    </>
  );
}

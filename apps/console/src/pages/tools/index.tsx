// Tools: the account's custom functions (the HTTPS endpoints agents' models may call) and lifecycle hooks, and
// the integration log of the requests made to them. Console URLs:
//   /tools                      functions and hooks
//   /tools/functions/new        a new function
//   /tools/functions/{fn_id}    a function: settings, test, agents, latest requests
//   /tools/logs?call_id=&function_id=&agent_id=&hook_id=&kind=&outcome=   requests, filtered
//   /tools/logs/{ilog_id}       one request, sent and answered
import { v2 } from '../../api.js';
import { ErrorNotice, LoadState, useLoad } from '../../components/ui.js';
import { linkProps } from '../../router.js';
import { can, Session } from '../../session.js';
import { CustomFunction, FunctionPage } from './function-page.js';
import { LifecycleHooks } from './hooks.js';
import { LogPage, LogsPage } from './logs.js';
import { formatDate } from '../../components/format.js';

function ToolsPage({ session }: { session: Session }) {
  const functions = useLoad(
    () =>
      v2.get<{ custom_functions: CustomFunction[]; next_cursor: string | null }>('/custom-functions', {
        limit: 100,
      }),
    [],
  );
  const write = can.write(session);
  return (
    <>
      <div class="row">
        <h2>Tools</h2>
        <a {...linkProps('/tools/logs')}>Integration log</a>
      </div>
      <section class="card" aria-labelledby="fns-h">
        <div class="row">
          <h3 id="fns-h">Custom functions</h3>
          {write && (
            <a class="button" {...linkProps('/tools/functions/new')}>
              New function
            </a>
          )}
        </div>
        <p class="muted">
          Your HTTPS endpoints an agent’s model may call during a conversation (“look up this order”). Attach
          them to agents here or in an agent’s Tools section.
        </p>
        <LoadState loaded={functions}>
          {(l) => (
            <table>
              <caption class="sr-only">Custom functions</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Agents</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {l.custom_functions.map((f) => (
                  <tr key={f.id}>
                    <td>
                      <a {...linkProps(`/tools/functions/${encodeURIComponent(f.id)}`)}>{f.name}</a>
                      <div class="muted small">{f.description}</div>
                    </td>
                    <td>
                      <code class="wrap">
                        {f.method} {f.url}
                      </code>
                    </td>
                    <td>{f.attached_agents.map((a) => a.name).join(', ') || '—'}</td>
                    <td>{formatDate(f.updated_at)}</td>
                  </tr>
                ))}
                {l.custom_functions.length === 0 && (
                  <tr>
                    <td colSpan={4} class="muted">
                      No custom functions yet.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          )}
        </LoadState>
      </section>
      <div class="card">
        <LifecycleHooks write={write} />
      </div>
    </>
  );
}

/** The Tools area's pages, by the path's segments after /tools. */
export function ToolsArea({ session, rest }: { session: Session; rest: string[] }) {
  const [sub, id] = rest;
  if (sub === undefined) return <ToolsPage session={session} />;
  if (sub === 'functions' && id)
    return <FunctionPage key={id} session={session} id={id === 'new' ? null : id} />;
  if (sub === 'logs') return id ? <LogPage key={id} id={id} /> : <LogsPage key={window.location.search} />;
  return <ErrorNotice error={new Error('There is no page here.')} />;
}

// Agents by name: lists and pages name the agent (linked to its page), never its id.
import { ApiError, v2 } from '../api.js';
import { linkProps } from '../router.js';
import { AgentSummary, loadAgents } from './names.js';
import { useLoad } from './ui.js';

/** Every agent of the account, by name. */
export function useAgents() {
  return useLoad(loadAgents, []);
}

/** One agent's name (a deleted agent, or one not found, is said so). */
export function useAgentName(id: string | null | undefined) {
  return useLoad(async () => {
    if (!id) return null;
    try {
      return (await v2.get<AgentSummary>(`/agent/${encodeURIComponent(id)}`)).agent_name;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }
  }, [id]);
}

/** The agent's name linked to its page; "a deleted agent" when it is gone, a placeholder while loading. */
export function AgentLink({ id, name }: { id: string; name: string | null | undefined }) {
  if (name === undefined) return <span class="muted">…</span>;
  if (name === null) return <span class="muted">a deleted agent</span>;
  return <a {...linkProps(`/agents/${encodeURIComponent(id)}`)}>{name}</a>;
}

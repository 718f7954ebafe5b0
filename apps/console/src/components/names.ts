// The account's agents, custom functions and projects by id, so that pages show names instead of ids. Each
// list is read whole (bounded by allPages' maximum: accounts hold at most 100 functions and 100 projects).
import { allPages, v2 } from '../api.js';
import { useLoad } from './ui.js';

export interface NamedFunction {
  id: string;
  name: string;
  description: string;
}

export interface Project {
  id: string;
  name: string;
  is_default: boolean;
}

export interface AgentSummary {
  id: string;
  agent_name: string;
}

/** Every agent of the account (at most allPages' maximum), sorted by name. */
export const loadAgents = () =>
  allPages(async (cursor) => {
    const page = await v2.get<{ agents: AgentSummary[]; next_cursor: string | null }>('/agent', {
      cursor,
      limit: 100,
    });
    return { items: page.agents, next: page.next_cursor };
  }).then((agents) => [...agents].sort((a, b) => a.agent_name.localeCompare(b.agent_name)));

export const loadAgentNames = () =>
  loadAgents().then((agents) => new Map(agents.map((a) => [a.id, a.agent_name])));

export const loadFunctions = () =>
  allPages(async (cursor) => {
    const page = await v2.get<{ custom_functions: NamedFunction[]; next_cursor: string | null }>(
      '/custom-functions',
      { cursor, limit: 100 },
    );
    return { items: page.custom_functions, next: page.next_cursor };
  });

export const loadProjects = () =>
  allPages(async (cursor) => {
    const page = await v2.get<{ projects: Project[]; next_cursor: string | null }>('/projects', {
      cursor,
      limit: 100,
    });
    return { items: page.projects, next: page.next_cursor };
  });

/** Agent and function names by id (empty maps until they are loaded, or when they could not be). */
export function useNames(): { agents: Map<string, string>; functions: Map<string, string> } {
  const agents = useLoad(loadAgentNames, []);
  const functions = useLoad(loadFunctions, []);
  return {
    agents: agents.data ?? new Map(),
    functions: new Map((functions.data ?? []).map((f) => [f.id, f.name])),
  };
}

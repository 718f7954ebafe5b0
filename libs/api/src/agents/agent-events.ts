import { AgentDto } from './agent.dto';

/** Payload of events.agent.created and events.agent.updated: the record as it is after the change. */
export type AgentChangedEvent = AgentDto;

/** Payload of events.agent.deleted. Other services stop using the agent; its routes answer 404. */
export interface AgentDeletedEvent {
  agent_id: string;
  agent_name: string;
  project_id: string;
  deleted_at: string;
}

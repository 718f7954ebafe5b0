// The conversation's port as its units see it: what the conversation holds now, read through getters (the agent
// changes at a handoff, the media exists once the stream started), beside what they may ask of it.

import type { AgentSnapshot } from '@vap/messages';
import type { CallMedia } from './call-media';
import type { ConversationPort, CurrentTurn } from './conversation-port';

/** What the port reads of the conversation, as it is at the moment of reading. */
export interface PortState {
  agent(): AgentSnapshot;
  /** The call's media: read only once the stream started (the units act on a live call). */
  media(): CallMedia | null;
  variables(): Readonly<Record<string, unknown>>;
  live(): boolean;
  ending(): boolean;
  turn(): CurrentTurn | null;
}

type StateFields = 'agent' | 'clock' | 'voice' | 'caller' | 'variables' | 'live' | 'ending' | 'turn';

export function bindPort(state: PortState, rest: Omit<ConversationPort, StateFields>): ConversationPort {
  return {
    ...rest,
    get agent() {
      return state.agent();
    },
    get clock() {
      return state.media()!.time;
    },
    get voice() {
      return state.media()!.speech;
    },
    get caller() {
      return state.media()!.input;
    },
    get variables() {
      return state.variables();
    },
    get live() {
      return state.live();
    },
    get ending() {
      return state.ending();
    },
    get turn() {
      return state.turn();
    },
  };
}

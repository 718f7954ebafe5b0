import type { AgentDto } from '@vap/api';
import { agentSettingsOf } from './agent-settings-of';

const agent = {
  prompt: 'Be brief.',
  tool_ack_config: null,
  turn_taking: { mode: 'patient', min_silence_ms: 600, max_silence_ms: null, ignore_backchannels: false },
  documents: [],
} as unknown as AgentDto;

describe('agentSettingsOf', () => {
  it("carries the agent's turn_taking to the call", () => {
    expect(agentSettingsOf(agent).turn_taking).toEqual({
      mode: 'patient',
      min_silence_ms: 600,
      max_silence_ms: null,
      ignore_backchannels: false,
    });
  });
});

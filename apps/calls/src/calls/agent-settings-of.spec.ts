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

  it("carries the agent's speech choices to the call, and none from a record that has none", () => {
    const transcriber = { provider: 'deepgram', model: 'nova-3', keyterms: ['Ravigo'] };
    const speech = {
      ...agent,
      transcriber,
      fallback_transcriber: { provider: 'assemblyai' },
      fallback_voice_ids: ['59a54a7b-b1fe-408f-9712-42425051c1cc'],
      dictionary_ids: ['0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c11'],
    } as unknown as AgentDto;
    expect(agentSettingsOf(speech)).toMatchObject({
      transcriber,
      fallback_transcriber: { provider: 'assemblyai' },
      fallback_voice_ids: ['59a54a7b-b1fe-408f-9712-42425051c1cc'],
      dictionary_ids: ['0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c11'],
    });
    expect(agentSettingsOf(agent)).toMatchObject({
      transcriber: null,
      fallback_transcriber: null,
      fallback_voice_ids: [],
      dictionary_ids: [],
    });
  });
});

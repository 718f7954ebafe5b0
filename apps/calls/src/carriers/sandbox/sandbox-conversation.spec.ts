import { AgentSettings, TranscriptEntry } from '@vap/contracts';
import { OutboundCall } from '../carrier-adapter';
import { CallHangup, ConversationPorts, SandboxConversation } from './sandbox-conversation';

const agent: AgentSettings = {
  prompt: 'You help.',
  intro_message: 'Hi, this is Maya.',
  enable_recording: false,
  max_call_duration_secs: 3600,
  transfer_enabled: false,
  transfer_number: null,
  transfer_message: null,
  voicemail_detection_enabled: false,
  voicemail_message: null,
  end_call_message: 'Goodbye from Maya.',
  extraction_enabled: false,
  voice_id: '00000000-0000-4000-8000-000000000001',
  spoken_languages: ['en'],
  end_call_enabled: true,
  end_call_instructions: null,
  transfer_instructions: null,
  user_idle_enabled: true,
  tool_ack_config: null,
  background_audio_id: null,
  background_audio_volume: 0.3,
  kb_threshold: 'medium',
  kb_include_summaries: false,
  kb_result_format: null,
  has_knowledge: false,
};

const call = {
  callId: 'c1',
  partnerId: 'p1',
  agentId: 'a1',
  agent,
  variables: {},
} as unknown as OutboundCall;

/** Ports that record the transcript with its call-time clock and hang up on the given step. */
function ports(hangUpAtStep: number | null) {
  const said: { role: string; content: string; callSeconds: number }[] = [];
  let steps = 0;
  let hungUp = false;
  const p: ConversationPorts = {
    reply: async () => 'Sure.',
    say: async (role, content, callSeconds) => {
      said.push({ role, content, callSeconds });
      return { role, content, timestamp: new Date().toISOString() } as TranscriptEntry;
    },
    transfer: async () => false,
    hold: async () => undefined,
    step: async () => {
      steps++;
      if (!hungUp && hangUpAtStep !== null && steps >= hangUpAtStep) {
        hungUp = true;
        throw new CallHangup('insufficient_balance');
      }
    },
  };
  return { p, said };
}

describe('a sandbox conversation the platform hangs up', () => {
  it('says the agent farewell and ends with the reason, at the time reached', async () => {
    const { p, said } = ports(6);
    const end = await new SandboxConversation(call, {}, p).run('long_talker');
    expect(end).toMatchObject({
      disposition: 'completed',
      endCallReason: 'insufficient_balance',
      hangupSource: 'system',
    });
    expect(said[said.length - 1]).toMatchObject({ role: 'bot', content: 'Goodbye from Maya.' });
    expect(end.durationSeconds).toBeLessThan(3600);
    expect(end.durationSeconds).toBe(Math.max(1, Math.round(said[said.length - 1].callSeconds + 0.4)));
  });

  it('reports the call clock with every line, rising as the call goes on', async () => {
    const { p, said } = ports(null);
    await new SandboxConversation(call, {}, p).run('conversation');
    const clock = said.map((s) => s.callSeconds);
    expect(clock[0]).toBeGreaterThan(0);
    for (let i = 1; i < clock.length; i++) expect(clock[i]).toBeGreaterThan(clock[i - 1]);
  });
});

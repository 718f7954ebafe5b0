import { AgentDto } from '@vap/api';
import { CustomFunctionSpec } from '@vap/messages';
import { newCall, NewCallFields } from './call.entity';

const agent = {
  id: 'a0000000-0000-4000-8000-000000000001',
  agent_name: 'Maya',
  prompt: 'Be kind',
  intro_message: 'Hello',
  enable_recording: true,
  max_call_duration_secs: 300,
  transfer_enabled: false,
  transfer_number: null,
  transfer_message: null,
  voicemail_detection_enabled: false,
  voicemail_message: null,
  end_call_message: null,
  extraction_enabled: true,
  documents: [],
} as unknown as AgentDto;

const fields: NewCallFields = {
  partnerId: 'p-1',
  direction: 'inbound',
  fromNumber: '+15550000001',
  toNumber: '+15550000002',
  phoneNumberId: null,
  connectionId: 'conn-1',
  provider: 'carrier_b',
  providerCallId: 'CA1',
  clientReferenceId: null,
  variables: {},
  concurrencyLimit: null,
  providerStatus: 'ringing',
  providerEvent: 'inbound',
};

describe('newCall', () => {
  it('starts pending with nothing measured or decided, the agent copied and the given fields', () => {
    const call = newCall({ agent, customFunctions: [] }, fields);
    expect(call).toEqual({
      ...fields,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      agentId: agent.id,
      agentName: 'Maya',
      agentSettings: expect.objectContaining({
        prompt: 'Be kind',
        introMessage: 'Hello',
        enableRecording: true,
      }),
      // The agent holding the call is the one it starts with until a handoff.
      currentAgentSettings: null,
      // Not transferred until the agent transfers it.
      transfer: null,
      status: 'pending',
      disposition: null,
      answeredBy: null,
      endCallReason: null,
      hangupCause: null,
      hangupSource: null,
      billDurationSeconds: null,
      campaignId: null,
      customerId: null,
      projectId: null,
      durationSeconds: null,
      errorMessage: null,
      startedAt: null,
      endedAt: null,
      platformSpeechProviders: [],
      modelPaidBy: [],
    });
    expect(call.sessionId).not.toBe(call.id);
  });

  it('copies the specs of the functions attached to the agent when the call starts', () => {
    const spec: CustomFunctionSpec = {
      id: 'fn_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
      name: 'check_order',
      description: 'Looks up an order',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
      timeout_ms: 10_000,
      speech: { on_start: 'One moment.', on_delay: null, delay_ms: 2000, on_failure: null },
      async: false,
    };
    expect(newCall({ agent, customFunctions: [spec] }, fields).agentSettings?.customFunctions).toEqual([
      {
        id: 'fn_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
        name: 'check_order',
        description: 'Looks up an order',
        parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
        timeoutMs: 10_000,
        speech: { onStart: 'One moment.', onDelay: null, delayMs: 2000, onFailure: null },
        async: false,
      },
    ]);
    expect(newCall({ agent, customFunctions: [] }, fields).agentSettings?.customFunctions).toEqual([]);
  });

  it('gives every call its own ids', () => {
    const [a, b] = [
      newCall({ agent, customFunctions: [] }, fields),
      newCall({ agent, customFunctions: [] }, fields),
    ];
    expect(a.id).not.toBe(b.id);
    expect(a.sessionId).not.toBe(b.sessionId);
  });
});

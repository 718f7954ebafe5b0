import type { ChatDelta } from '@vap/llm';
import { CallHarness } from '../testing/conversation-harness';

const sendSmsCall = (args: Record<string, unknown>): ChatDelta => ({
  type: 'tool_call',
  call: { id: 'call-sms', name: 'send_sms', arguments: args },
});

describe('conversation: send_sms', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  const toolResult = (harness: CallHarness) => {
    const messages = harness.model.requests[1].messages;
    return messages[messages.length - 1];
  };

  it('is offered only when enabled, with a recipient only when any number is allowed', async () => {
    call = new CallHarness({ agent: { smsEnabled: true }, sttTexts: ['Hello.'] }).start();
    call.say(300);
    await call.until(() => call!.model.requests.length === 1, 'a model request');
    const caller = call.model.requests[0].tools.find((t) => t.name === 'send_sms');
    expect(caller?.parameters.properties).toEqual({ body: expect.any(Object) });
    await call.close();

    call = new CallHarness({
      agent: { smsEnabled: true, smsAllowedRecipients: 'any' },
      sttTexts: ['Hello.'],
    }).start();
    call.say(300);
    await call.until(() => call!.model.requests.length === 1, 'a model request');
    const anyone = call.model.requests[0].tools.find((t) => t.name === 'send_sms');
    expect(Object.keys(anyone?.parameters.properties ?? {})).toEqual(['body', 'to']);
    await call.close();

    call = new CallHarness({ sttTexts: ['Hello.'] }).start();
    call.say(300);
    await call.until(() => call!.model.requests.length === 1, 'a model request');
    expect(call.model.requests[0].tools.map((t) => t.name)).not.toContain('send_sms');
  });

  it('asks the calls service to text the person on the call and tells the model it went', async () => {
    call = new CallHarness({
      agent: { smsEnabled: true },
      sttTexts: ['Text me the address.'],
      model: [{ deltas: [sendSmsCall({ body: ' 1 Main Street ' })] }, { deltas: [] }],
    }).start();
    call.reporter.smsReply = { sent: true, messageId: 'msg_x', to: '+15550001234', reason: null };
    call.say(400);
    await call.until(() => call!.model.requests.length === 2, 'the tool result to reach the model');
    expect(call.reporter.smsSent).toEqual([{ to: null, body: '1 Main Street' }]);
    expect(toolResult(call)).toEqual({
      role: 'tool',
      tool_call_id: 'call-sms',
      content: 'The message was sent to +15550001234.',
    });
  });

  it('passes a refusal on to the model in words, and sends nothing without a text', async () => {
    call = new CallHarness({
      agent: { smsEnabled: true },
      sttTexts: ['Text my wife.'],
      model: [{ deltas: [sendSmsCall({ to: '+15550009999', body: 'Hi' })] }, { deltas: [] }],
    }).start();
    call.reporter.smsReply = {
      sent: false,
      messageId: null,
      to: null,
      reason: 'messages may go only to the person on this call',
    };
    call.say(400);
    await call.until(() => call!.model.requests.length === 2, 'the tool result to reach the model');
    expect(call.reporter.smsSent).toEqual([{ to: '+15550009999', body: 'Hi' }]);
    expect(toolResult(call)).toMatchObject({
      content: 'The message was not sent: messages may go only to the person on this call.',
    });
    await call.close();

    call = new CallHarness({
      agent: { smsEnabled: true },
      sttTexts: ['Text me.'],
      model: [{ deltas: [sendSmsCall({ body: '  ' })] }, { deltas: [] }],
    }).start();
    call.say(400);
    await call.until(() => call!.model.requests.length === 2, 'the tool result to reach the model');
    expect(call.reporter.smsSent).toEqual([]);
    expect(toolResult(call)).toMatchObject({ content: 'No message text was given.' });
  });
});

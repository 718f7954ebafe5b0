import type { ChatDelta } from '@vap/llm';
import { detectDtmf, type MediaStreamCommand } from '@vap/media';
import { CallHarness } from '../testing/conversation-harness';

const sendDtmfCall = (digits: unknown): ChatDelta => ({
  type: 'tool_call',
  call: { id: 'call-dtmf', name: 'send_dtmf', arguments: { digits } },
});

const keypad = { enabled: true, maxDigits: null, terminator: '#' as const, timeoutMs: 2000 };

function audioSent(call: CallHarness): Buffer {
  return Buffer.concat(
    call.sent
      .map((s) => s.command)
      .filter((c): c is Extract<MediaStreamCommand, { type: 'sendAudio' }> => c.type === 'sendAudio')
      .map((c) => c.payload),
  );
}

describe('conversation: DTMF', () => {
  let call: CallHarness | undefined;
  afterEach(async () => {
    await call?.close();
    call = undefined;
  });

  it('hands a keypad entry to the model as caller input, and keeps it in the transcript', async () => {
    call = new CallHarness({
      agent: { dtmf: keypad },
      model: [{ deltas: [{ type: 'text', text: 'Thanks, I found your account.' }] }],
    }).start();
    await call.press('4711#');
    await call.until(() => call!.reporter.lines.some((l) => l.role === 'bot'), 'the reply');
    const request = call.model.requests[0];
    expect(request.messages[request.messages.length - 1]).toEqual({
      role: 'user',
      content: '[keypad] 4711 #',
    });
    expect(call.reporter.lines.map((l) => [l.role, l.content])).toEqual([
      ['user', '[keypad] 4711 #'],
      ['bot', 'Thanks, I found your account.'],
    ]);
  });

  it('collects a fixed-length entry and ends it at max_digits without a terminator', async () => {
    call = new CallHarness({ agent: { dtmf: { ...keypad, maxDigits: 4, terminator: null } } }).start();
    await call.press('123456');
    await call.until(() => call!.model.requests.length === 1, 'a model request');
    const messages = call.model.requests[0].messages;
    expect(messages[messages.length - 1]).toEqual({ role: 'user', content: '[keypad] 1234' });
  });

  it('ends an entry after timeout_ms of keypad silence', async () => {
    call = new CallHarness({ agent: { dtmf: { ...keypad, timeoutMs: 1000 } } }).start();
    await call.press('12');
    await call.until(() => call!.model.requests.length === 1, 'a model request');
    expect(call.reporter.lines[0].content).toBe('[keypad] 12');
  });

  it('ignores key presses when the agent does not take them', async () => {
    call = new CallHarness({ agent: { introMessage: null } }).start();
    await call.press('12#');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(call.model.requests).toEqual([]);
    expect(call.reporter.lines).toEqual([]);
  });

  it('a key pressed while the agent speaks interrupts it, as speech does', async () => {
    call = new CallHarness({
      agent: {
        dtmf: keypad,
        introMessage:
          'Welcome to Acme, this is a long greeting that goes on for quite a while before it ends.',
      },
    }).start();
    await call.until(() => call!.commands('sendAudio').length > 30, 'the intro playing');
    await call.press('9#');
    await call.until(() => call!.commands('clear').length === 1, 'the intro cut');
    await call.until(() => call!.reporter.lines.length >= 2, 'the lines reported');
    const intro = call.reporter.lines[0];
    expect(intro.role).toBe('bot');
    expect(intro.interrupted).toBe(true);
    expect(intro.content.length).toBeLessThan(40);
    expect(call.reporter.lines[1].content).toBe('[keypad] 9 #');
  });

  it('keys pressed while a transfer is under way neither stop it nor start a turn, but are kept', async () => {
    call = new CallHarness({
      agent: { dtmf: keypad, transferEnabled: true, transferNumber: '+15559990000' },
      sttTexts: ['A person please.'],
      model: [
        {
          deltas: [
            { type: 'tool_call', call: { id: 't1', name: 'transfer_call', arguments: { reason: 'x' } } },
          ],
        },
      ],
    }).start();
    call.reporter.toolDelayMs = 400;
    call.say(400);
    await call.until(() => call!.reporter.transfers.length === 1, 'the transfer asked');
    await call.press('5#');
    const done = await call.done();
    expect(done.endCallReason).toBe('transferred');
    expect(call.model.requests).toHaveLength(1);
    expect(call.commands('clear')).toEqual([]);
    expect(call.reporter.lines.map((l) => [l.role, l.content])).toContainEqual(['user', '[keypad] 5 #']);
  });

  it('an entry still being keyed when the call ends is dropped', async () => {
    call = new CallHarness({ agent: { dtmf: { ...keypad, timeoutMs: 5000 } } }).start();
    await call.press('12');
    call.hangUp();
    await call.done();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(call.reporter.lines).toEqual([]);
    expect(call.model.requests).toEqual([]);
  });

  it('send_dtmf is offered only when enabled', async () => {
    call = new CallHarness({ agent: { sendDtmfEnabled: true }, sttTexts: ['Hello.'] }).start();
    call.say(300);
    await call.until(() => call!.model.requests.length === 1, 'a model request');
    expect(call.model.requests[0].tools.map((t) => t.name)).toContain('send_dtmf');
    await call.close();
    call = new CallHarness({ sttTexts: ['Hello.'] }).start();
    call.say(300);
    await call.until(() => call!.model.requests.length === 1, 'a model request');
    expect(call.model.requests[0].tools.map((t) => t.name)).not.toContain('send_dtmf');
  });

  it('send_dtmf in-band: the keys play as touch tones in the agent audio, and the model hears they went', async () => {
    call = new CallHarness({
      agent: { sendDtmfEnabled: true },
      sttTexts: ['Press 2 for sales.'],
      model: [{ deltas: [sendDtmfCall('2w#')] }, { deltas: [] }],
    }).start();
    call.say(400);
    await call.until(() => call!.model.requests.length === 2, 'the tool result to reach the model');
    expect(detectDtmf(audioSent(call))).toBe('2#');
    const messages = call.model.requests[1].messages;
    expect(messages[messages.length - 1]).toEqual({
      role: 'tool',
      tool_call_id: 'call-dtmf',
      content: 'Pressed 2w#.',
    });
    expect(call.reporter.digitsSent).toEqual([]);
    await call.until(() => call!.reporter.lines.some((l) => l.role === 'bot'), 'the keys reported');
    expect(call.reporter.lines.find((l) => l.role === 'bot')?.content).toBe('[keypad] 2w#');
  });

  it('send_dtmf through the carrier: the reporter sends the keys, no tones are played', async () => {
    call = new CallHarness({
      agent: { sendDtmfEnabled: true },
      dtmfRoute: 'carrier',
      sttTexts: ['Enter your extension.'],
      model: [{ deltas: [sendDtmfCall(' 12-34 ')] }, { deltas: [] }],
    }).start();
    call.say(400);
    await call.until(() => call!.model.requests.length === 2, 'the tool result to reach the model');
    expect(call.reporter.digitsSent).toEqual(['1234']);
    expect(detectDtmf(audioSent(call))).toBe('');
    await call.until(() => call!.reporter.lines.some((l) => l.role === 'bot'), 'the keys reported');
    expect(call.reporter.lines.find((l) => l.role === 'bot')?.content).toBe('[keypad] 1234');
  });

  it('send_dtmf refuses digits that are no keys, without sending anything', async () => {
    call = new CallHarness({
      agent: { sendDtmfEnabled: true },
      dtmfRoute: 'carrier',
      sttTexts: ['Enter your extension.'],
      model: [{ deltas: [sendDtmfCall('1x')] }, { deltas: [] }],
    }).start();
    call.say(400);
    await call.until(() => call!.model.requests.length === 2, 'the tool result to reach the model');
    expect(call.reporter.digitsSent).toEqual([]);
    const messages = call.model.requests[1].messages;
    expect(messages[messages.length - 1]).toMatchObject({
      role: 'tool',
      content: expect.stringMatching(/^Not sent/),
    });
  });
});

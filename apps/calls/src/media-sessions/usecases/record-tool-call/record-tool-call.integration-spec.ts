// calls.voice.tool_call as the voice service sends it to the running calls module: each tool the agent ran is
// kept on the call's session, timed on the media clock, and the variables it set merge into the call's; a
// repeat on its stream is kept once, oversized arguments are cut, and a malformed report is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode, TOOL_CALL_MAX_ARGUMENT_BYTES, VoiceToolCallRequest } from '@vap/messages';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { saveSandboxCall, useCallsOnSandbox, storedCall } from '../../../testing/sandbox-calls';

describe('record a tool call', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  const report = (callId: string, fields: Partial<VoiceToolCallRequest> = {}) =>
    calls.send('calls.voice.tool_call', null, {
      callId,
      name: 'lookup_order',
      kind: 'custom',
      functionId: 'fn_1',
      arguments: { order: '42' },
      outcome: 'success',
      latencyMs: 180.6,
      logId: null,
      atMs: 2000,
      ...fields,
    });

  it('keeps the invocation on the session and merges the variables it set into the call’s', async () => {
    const startedAt = new Date('2026-03-01T10:00:00.000Z');
    const call = await saveSandboxCall(dataSource, { startedAt, variables: { name: 'Asha' } });

    expect(await report(call.id, { variables: { order_status: 'shipped' } })).toEqual({ ok: true });

    const stored = await storedCall(dataSource, call.id);
    expect(stored.session.toolCalls).toEqual([
      {
        name: 'lookup_order',
        kind: 'custom',
        function_id: 'fn_1',
        arguments: { order: '42' },
        arguments_truncated: false,
        outcome: 'success',
        latency_ms: 181,
        log_id: null,
        timestamp: '2026-03-01T10:00:02.000Z',
        variables: { order_status: 'shipped' },
      },
    ]);
    expect(stored.call.variables).toEqual({ name: 'Asha', order_status: 'shipped' });
  });

  it('keeps a repeat on its stream once and cuts arguments larger than the session keeps', async () => {
    const call = await saveSandboxCall(dataSource);
    await report(call.id, { streamId: 's1', seq: 0 });
    await report(call.id, { streamId: 's1', seq: 0 });
    await report(call.id, {
      streamId: 's1',
      seq: 1,
      name: 'end_call',
      kind: 'builtin',
      functionId: null,
      arguments: { note: 'x'.repeat(TOOL_CALL_MAX_ARGUMENT_BYTES + 1) },
    });

    const { session } = await storedCall(dataSource, call.id);
    expect(session.toolCalls.map((t) => [t.name, t.arguments, t.arguments_truncated])).toEqual([
      ['lookup_order', { order: '42' }, false],
      ['end_call', {}, true],
    ]);
  });

  it('refuses a malformed report and another partner’s call, and keeps nothing of them', async () => {
    const call = await saveSandboxCall(dataSource);

    await expect(report(call.id, { kind: 'magic' as 'custom' })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    await expect(report(call.id, { name: 'not a name!' })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    await expect(report(call.id, { arguments: ['a'] })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    await expect(
      calls.send('calls.voice.tool_call', randomUUID(), {
        callId: call.id,
        name: 'lookup_order',
        kind: 'custom',
        functionId: null,
        arguments: {},
        outcome: 'success',
        latencyMs: 1,
        logId: null,
        atMs: 0,
      }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect((await storedCall(dataSource, call.id)).session.toolCalls).toEqual([]);
  });
});

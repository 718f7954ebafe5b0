import { Phrases } from '../phrases';
import { FakePort, turnOf } from '../testing/fake-port';
import { IDLE_REPROMPT_MS, IDLE_STREAM_SLACK_MS, IdleController } from './idle-controller';

function idlePort(enabled = true): { port: FakePort; idle: IdleController } {
  const port = new FakePort({ userIdleEnabled: enabled });
  return { port, idle: new IdleController(port) };
}

describe('IdleController', () => {
  it('reprompts after the silence, then ends the call after the same again', () => {
    const { port } = idlePort();
    port.events.emit('live', { intro: false });
    port.pass(IDLE_REPROMPT_MS - 1);
    expect(port.said).toEqual([]);
    port.pass(1);
    expect(port.said.map((s) => s.text)).toEqual([Phrases.idleReprompt]);
    // The reprompt played out: the silence counts again from its end.
    port.events.emit('agentLineDone', { line: null as never });
    port.pass(IDLE_REPROMPT_MS);
    expect(port.ends).toEqual([
      { reason: 'user_idle_timeout', farewell: Phrases.idleGoodbye, options: { interrupt: false } },
    ]);
  });

  it('does nothing for an agent without user_idle_enabled', () => {
    const { port, idle } = idlePort(false);
    port.events.emit('live', { intro: false });
    port.events.emit('agentLineDone', { line: null as never });
    expect(idle.armed).toBe(false);
    port.pass(3 * IDLE_REPROMPT_MS);
    expect(port.said).toEqual([]);
    expect(port.ends).toEqual([]);
  });

  it('waits for an intro to be said before counting', () => {
    const { port, idle } = idlePort();
    port.events.emit('live', { intro: true });
    expect(idle.armed).toBe(false);
    port.events.emit('agentLineDone', { line: null as never });
    expect(idle.armed).toBe(true);
  });

  it('stops when the caller takes the floor, and the strikes start over', () => {
    const { port, idle } = idlePort();
    port.events.emit('turnEnded', {});
    port.pass(IDLE_REPROMPT_MS);
    expect(port.said).toHaveLength(1);
    port.events.emit('agentLineDone', { line: null as never });
    port.pass(IDLE_REPROMPT_MS / 2);
    port.events.emit('callerStarted', { by: 'key' });
    expect(idle.armed).toBe(false);
    port.pass(IDLE_REPROMPT_MS);
    expect(port.said).toHaveLength(1);
    // A fresh silence is a first strike again: a reprompt, not the goodbye.
    port.events.emit('callerWords', { text: 'hello' });
    port.pass(IDLE_REPROMPT_MS);
    expect(port.said.map((s) => s.text)).toEqual([Phrases.idleReprompt, Phrases.idleReprompt]);
    expect(port.ends).toEqual([]);
  });

  it('counts the silence from the last time the caller typed, and never asks a person who keeps typing', () => {
    const { port, idle } = idlePort();
    port.events.emit('live', { intro: false });
    // Typing every few seconds for four times the idle silence: no reprompt, no goodbye.
    for (let t = 0; t < 4 * IDLE_REPROMPT_MS; t += IDLE_REPROMPT_MS / 2) {
      port.pass(IDLE_REPROMPT_MS / 2);
      port.events.emit('callerTyping', {});
      expect(idle.armed).toBe(true);
    }
    expect(port.said).toEqual([]);
    // After a reprompt, typing starts the strikes over: the next silence reprompts again, it does not hang up.
    port.pass(IDLE_REPROMPT_MS);
    expect(port.said.map((s) => s.text)).toEqual([Phrases.idleReprompt]);
    port.events.emit('agentLineDone', { line: null as never });
    port.events.emit('callerTyping', {});
    port.pass(IDLE_REPROMPT_MS);
    expect(port.said.map((s) => s.text)).toEqual([Phrases.idleReprompt, Phrases.idleReprompt]);
    expect(port.ends).toEqual([]);
  });

  it('is not armed while a turn runs, the agent speaks or the caller speaks', () => {
    const { port, idle } = idlePort();
    port.turn = turnOf();
    port.events.emit('agentLineDone', { line: null as never });
    expect(idle.armed).toBe(false);
    port.turn = null;
    port.voice.busy = true;
    port.events.emit('agentLineDone', { line: null as never });
    expect(idle.armed).toBe(false);
    port.voice.busy = false;
    port.caller.speaking = true;
    port.events.emit('agentLineDone', { line: null as never });
    expect(idle.armed).toBe(false);
  });

  it('stops when a turn starts and when the call ends', () => {
    const { port, idle } = idlePort();
    port.events.emit('turnEnded', {});
    port.events.emit('turnStarted', { unprompted: true });
    expect(idle.armed).toBe(false);
    port.events.emit('turnEnded', {});
    expect(idle.armed).toBe(true);
    void port.beginEnding('agent_ended_call');
    expect(idle.armed).toBe(false);
    port.pass(2 * IDLE_REPROMPT_MS);
    expect(port.said).toEqual([]);
  });

  it('waits out a stalled stream until the caller audio has covered the silence', () => {
    const { port } = idlePort();
    port.events.emit('turnEnded', {});
    // No caller frames for the whole wait (a stall): not silence the caller was heard keeping.
    port.clock.advance(IDLE_REPROMPT_MS);
    expect(port.said).toEqual([]);
    // The frames come, short of the slack-less wait by more than the slack: it waits for the rest.
    port.pass(IDLE_REPROMPT_MS - 2 * IDLE_STREAM_SLACK_MS);
    port.clock.advance(2 * IDLE_STREAM_SLACK_MS);
    expect(port.said).toEqual([]);
    port.pass(2 * IDLE_STREAM_SLACK_MS);
    expect(port.said.map((s) => s.text)).toEqual([Phrases.idleReprompt]);
  });
});

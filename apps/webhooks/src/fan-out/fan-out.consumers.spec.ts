import 'reflect-metadata';
import { STREAMED_WEBHOOK_EVENTS } from '@vap/api';
import { ON_DOMAIN_EVENT } from '@vap/messaging';
import { FanOutConsumers } from './fan-out.consumers';

describe('FanOutConsumers', () => {
  it('consumes every catalog type the event stream feeds, and nothing else', () => {
    const proto = FanOutConsumers.prototype as unknown as Record<string, unknown>;
    const subjects = Object.getOwnPropertyNames(proto)
      .map(
        (name) =>
          Reflect.getMetadata(ON_DOMAIN_EVENT, proto[name] as object) as { subject: string } | undefined,
      )
      .filter((m): m is { subject: string } => !!m)
      .map((m) => m.subject)
      .sort();
    expect(subjects).toEqual(STREAMED_WEBHOOK_EVENTS.map((e) => e.subject).sort());
  });
});

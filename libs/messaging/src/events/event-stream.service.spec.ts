// The event stream's retention against real NATS JetStream: its max age is the configured retention, also
// on a stream made earlier with another one.
import { MessagingTestKit } from '../testing/messaging-test-kit';

jest.setTimeout(30_000);

const DAY_MS = 24 * 60 * 60 * 1000;

describe('event stream retention', () => {
  let kit: MessagingTestKit;

  beforeAll(async () => {
    kit = await MessagingTestKit.create('vap_msg_stream');
  });

  afterAll(async () => {
    await kit?.dispose();
  });

  const start = (eventRetentionMs?: number) => kit.startStreamApp(eventRetentionMs);

  const maxAgeMs = async () => (await kit.jsm.streams.info(kit.streamName)).config.max_age / 1e6;

  it('makes the stream with the configured retention and applies a new one to the existing stream', async () => {
    const first = await start();
    expect(await maxAgeMs()).toBe(7 * DAY_MS);
    await kit.stopApp(first);

    const second = await start(30 * DAY_MS);
    expect(await maxAgeMs()).toBe(30 * DAY_MS);
    await kit.stopApp(second);

    const third = await start(2 * DAY_MS);
    expect(await maxAgeMs()).toBe(2 * DAY_MS);
    await kit.stopApp(third);
  });
});

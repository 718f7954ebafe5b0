// Each service's NATS user, against a real nats-server running the generated accounts: what it needs works
// (serve its commands, send the ones it sends, record its events on the stream, consume and ack), the rest is
// refused by the server (others' commands and events, others' inboxes, deleting the stream, voice's JetStream).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AckPolicy, connect, ErrorCode, NatsConnection, NatsError, StringCodec, Subscription } from 'nats';
import {
  AddressedSubjects,
  CommandSenders,
  CommandSubject,
  DomainEventSubject,
  EventRecorders,
  NatsService,
  SERVICE_NAMES,
  VoiceReplicaHeartbeat,
} from '@vap/messages';
import { ResolvedNats, spawnNatsServer } from '@vap/testing';
import { EventStreamService } from './events/event-stream.service';
import { HeartbeatBucket } from './liveness/heartbeat-bucket';
import { NatsConnectionService } from './nats-connection.service';
import {
  eventStreamName,
  NATS_SERVICES,
  natsAccountsConfig,
  natsPasswordVariable,
  natsPermissions,
} from './nats-permissions';

jest.setTimeout(30_000);

const sc = StringCodec();
const PREFIX = `perm${randomBytes(3).toString('hex')}`;
const STREAM = eventStreamName(PREFIX);
const subject = (s: string) => `${PREFIX}.${s}`;
const addressed = new Set<string>(Object.values(AddressedSubjects).flatMap((s) => Object.values(s)));
const jetStreamServices = SERVICE_NAMES as readonly NatsService[];
const owner = (command: string) => command.split('.')[0] as NatsService;
const commands = Object.keys(CommandSenders) as CommandSubject[];
const events = Object.keys(EventRecorders) as DomainEventSubject[];
/** The subject a command travels on (an addressed one to some call id). */
const wire = (command: string) => subject(addressed.has(command) ? `${command}.call1` : command);

function isPermissionError(err: unknown): boolean {
  return err instanceof NatsError && err.code === ErrorCode.PermissionsViolation;
}

/** The server's refusals on a connection, as `publish <subject>` / `subscription <subject>`. */
function refusalsOf(nc: NatsConnection): Set<string> {
  const seen = new Set<string>();
  void (async () => {
    for await (const status of nc.status()) {
      const ctx = (status as { permissionContext?: { operation: string; subject: string } })
        .permissionContext;
      if (ctx) seen.add(`${ctx.operation} ${ctx.subject}`);
    }
  })();
  return seen;
}

describe('NATS users per service (generated permissions on a real nats-server)', () => {
  let dir: string;
  let server: ResolvedNats;
  const passwords = Object.fromEntries(
    NATS_SERVICES.map((s) => [s, `n${randomBytes(16).toString('hex')}`]),
  ) as Record<NatsService, string>;
  const services = new Map<NatsService, NatsConnectionService>();
  const refusals = new Map<NatsService, Set<string>>();
  const nc = (service: NatsService) => services.get(service)!.nc;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vap-nats-permissions-'));
    const configFile = join(dir, 'accounts.conf');
    // Passwords from the server's environment, as docker/nats and the Kubernetes overlays give them.
    writeFileSync(configFile, natsAccountsConfig({ subjectPrefix: PREFIX }));
    server = await spawnNatsServer({
      dataDir: dir,
      configFile,
      env: Object.fromEntries(NATS_SERVICES.map((s) => [natsPasswordVariable(s), passwords[s]])),
    });
    for (const service of NATS_SERVICES) {
      // The services' own connection code: credentials, and replies under the service's own inbox.
      const connection = new NatsConnectionService({
        serviceName: service,
        url: server.url,
        subjectPrefix: PREFIX,
        password: passwords[service],
      });
      await connection.onModuleInit();
      services.set(service, connection);
      refusals.set(service, refusalsOf(connection.nc));
    }
  });

  afterAll(async () => {
    for (const connection of services.values()) await connection.nc.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('admits each service only with its own password', async () => {
    for (const attempt of [
      { user: 'calls', pass: passwords.voice },
      { user: 'voice', pass: 'nwrong-password-000000' },
      {},
    ]) {
      await expect(
        connect({ servers: server.url, maxReconnectAttempts: 0, ...attempt }),
      ).rejects.toMatchObject({ code: ErrorCode.AuthorizationViolation });
    }
  });

  describe('commands', () => {
    const served = new Map<string, number>();
    const subs: Subscription[] = [];

    beforeAll(async () => {
      // Every service serves its own subjects in its queue group, as NatsRpcServer does.
      for (const service of NATS_SERVICES) {
        const sub = nc(service).subscribe(subject(`${service}.>`), {
          queue: service,
          callback: (_err, msg) => {
            served.set(msg.subject, (served.get(msg.subject) ?? 0) + 1);
            msg.respond(sc.encode(service));
          },
        });
        subs.push(sub);
        await nc(service).flush();
      }
    });

    afterAll(() => subs.forEach((s) => s.unsubscribe()));

    it('lets every sender request the commands CommandSenders gives it, answered by their service', async () => {
      const sent: string[] = [];
      for (const command of commands) {
        for (const sender of CommandSenders[command]) {
          const reply = await nc(sender).request(wire(command), sc.encode('{}'), { timeout: 5000 });
          expect({ command, sender, answeredBy: sc.decode(reply.data) }).toEqual({
            command,
            sender,
            answeredBy: owner(command),
          });
          sent.push(command);
        }
      }
      // The drift is checked elsewhere (the apps' sources); here: voice's reports and calls' addressed commands.
      expect(sent).toEqual(expect.arrayContaining(['calls.voice.transfer', 'voice.session.end']));
    });

    it("refuses every other service's command to each service", async () => {
      let refused = 0;
      for (const service of NATS_SERVICES) {
        for (const command of commands) {
          if (CommandSenders[command].includes(service) || owner(command) === service) continue;
          const before = served.get(wire(command)) ?? 0;
          const attempt = nc(service).request(wire(command), sc.encode('{}'), { timeout: 5000 });
          await expect(attempt.catch((err) => isPermissionError(err))).resolves.toBe(true);
          expect(served.get(wire(command)) ?? 0).toBe(before);
          refused++;
        }
      }
      for (const service of NATS_SERVICES) await nc(service).flush();
      // For instance: voice cannot start a call, and the gateway cannot forge voice's reports.
      expect(refusals.get('voice')!.has(`publish ${subject('calls.call.start')}`)).toBe(true);
      expect(refusals.get('gateway')!.has(`publish ${subject('calls.voice.ended')}`)).toBe(true);
      expect(refusals.get('webhooks')!.has(`publish ${subject('voice.session.end.call1')}`)).toBe(true);
      expect(refused).toBeGreaterThan(300);
    });

    it("refuses subscribing to another service's commands or replies", async () => {
      const attempts: [NatsService, string][] = [
        ['webhooks', subject('calls.>')],
        ['voice', subject('calls.voice.transfer')],
        ['gateway', '_INBOX.>'],
        ['voice', '_INBOX.gateway.>'],
        ['agents', subject('events.>')],
      ];
      for (const [service, target] of attempts) {
        nc(service).subscribe(target);
        await nc(service).flush();
        await nc(service).flush();
        expect({ service, target, refused: refusals.get(service)!.has(`subscription ${target}`) }).toEqual({
          service,
          target,
          refused: true,
        });
      }
      // The default inbox is not a service's own: a client without the service's inbox prefix gets no replies.
      const plain = await connect({ servers: server.url, user: 'calls', pass: passwords.calls });
      await expect(
        plain.request(subject('agents.agent.get'), sc.encode('{}'), { timeout: 5000 }),
      ).rejects.toMatchObject({ code: ErrorCode.PermissionsViolation });
      await plain.close();
    });
  });

  describe('events', () => {
    it('lets each service make the stream and publish the events it records, and no other', async () => {
      for (const service of jetStreamServices) {
        const stream = new EventStreamService(services.get(service)!, services.get(service)!.options);
        await stream.ensure();
        expect(await stream.currentMaxAgeMs()).toBeGreaterThan(0);
      }
      for (const event of events) {
        const ack = await nc(EventRecorders[event]).jetstream().publish(subject(event), sc.encode('{}'));
        expect(ack.stream).toBe(STREAM);
        for (const service of NATS_SERVICES.filter((s) => s !== EventRecorders[event])) {
          const forged = nc(service).jetstream().publish(subject(event), sc.encode('{}'), { timeout: 5000 });
          await expect(forged.catch((err) => isPermissionError(err))).resolves.toBe(true);
        }
      }
    });

    it('lets each service consume and ack events through a durable consumer of its own', async () => {
      for (const service of jetStreamServices) {
        const jsm = await nc(service).jetstreamManager();
        const durable = `${service}__permissions_check`;
        await jsm.consumers.add(STREAM, {
          durable_name: durable,
          filter_subject: subject('events.call.status_updated'),
          ack_policy: AckPolicy.Explicit,
        });
        const consumer = await nc(service).jetstream().consumers.get(STREAM, durable);
        const msg = await consumer.next({ expires: 5000 });
        expect(msg?.subject).toBe(subject('events.call.status_updated'));
        // Acked with the server's confirmation: a plain ack is only sent, and JetStream may count it after the read.
        expect(await msg!.ackAck()).toBe(true);
        const info = await jsm.consumers.info(STREAM, durable);
        expect({ service, delivered: info.delivered.stream_seq > 0, unacked: info.num_ack_pending }).toEqual({
          service,
          delivered: true,
          unacked: 0,
        });
        expect(
          refusals.get(service)!.size === 0 || ![...refusals.get(service)!].some((r) => r.includes('$JS')),
        ).toBe(true);
      }
    });

    it('refuses deleting the stream or a consumer, and the event stream to voice', async () => {
      const jsm = await nc('calls').jetstreamManager();
      await expect(jsm.streams.delete(STREAM)).rejects.toMatchObject({
        code: ErrorCode.PermissionsViolation,
      });
      await expect(jsm.consumers.delete(STREAM, 'webhooks__permissions_check')).rejects.toMatchObject({
        code: ErrorCode.PermissionsViolation,
      });
      // Voice's JetStream is its heartbeat bucket, nothing of the event stream.
      const voiceJsm = await nc('voice').jetstreamManager();
      await expect(voiceJsm.streams.info(STREAM)).rejects.toMatchObject({
        code: ErrorCode.PermissionsViolation,
      });
      await expect(voiceJsm.consumers.info(STREAM, 'webhooks__permissions_check')).rejects.toMatchObject({
        code: ErrorCode.PermissionsViolation,
      });
      expect(
        natsPermissions('voice', PREFIX).publish.filter(
          (s) => s.startsWith('$JS') && !s.includes(`KV_${PREFIX}_${VoiceReplicaHeartbeat.bucket}`),
        ),
      ).toEqual(['$JS.API.INFO']);
    });
  });

  describe('key-value buckets', () => {
    const bucketOf = (service: NatsService) =>
      new HeartbeatBucket(services.get(service)!, VoiceReplicaHeartbeat);

    it('lets voice beat and sign off in its heartbeat bucket, and calls read it but not write it', async () => {
      // Whichever opens it first makes it: here the reader.
      expect(await bucketOf('calls').isAlive('voice-x')).toBe(true); // a bucket younger than the lapse
      const voice = bucketOf('voice');
      await voice.beat('voice-1');
      const calls = bucketOf('calls');
      expect(await calls.isAlive('voice-1')).toBe(true);
      await expect(calls.beat('voice-2')).rejects.toThrow();
      await voice.remove('voice-1');
      const kv = await services.get('calls')!.js().views.kv(calls.name);
      expect(await kv.get('voice-1')).toMatchObject({ operation: 'DEL' });
      expect(await kv.get('voice-2')).toBeNull();
    });

    it('gives no other service the bucket', async () => {
      for (const service of ['gateway', 'agents', 'campaigns', 'webhooks'] as const) {
        await expect(bucketOf(service).beat('voice-3')).rejects.toMatchObject({
          code: ErrorCode.PermissionsViolation,
        });
      }
    });
  });
});

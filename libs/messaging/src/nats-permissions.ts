import {
  AddressedSubjects,
  CommandSenders,
  CommandSubject,
  CoreEventSubscriptions,
  DomainEventSubject,
  EventRecorders,
  eventStreamName,
  kvBucketName,
  KvBucketUsers,
  kvStreamName,
  NatsService,
  SERVICE_NAMES,
} from '@vap/messages';

/** Every NATS user of a deployment, one per service. */
export const NATS_SERVICES: readonly NatsService[] = [...SERVICE_NAMES, 'voice'];

/**
 * Where a service's replies and JetStream deliveries arrive: an inbox of its own, so that its NATS user
 * may subscribe to its replies and no one else's (the default `_INBOX.>` would let any service read them all).
 */
export function inboxPrefixOf(service: string): string {
  return `_INBOX.${service}`;
}

// Named in @vap/messages, where the test kit, which cannot depend on this library, names them too.
export { eventStreamName, kvBucketName } from '@vap/messages';

/**
 * The JetStream API a key-value bucket's user needs: account info (the client checks JetStream is there),
 * the bucket stream's info and create, and reads (direct get, message get); a writer also publishes
 * `$KV.<bucket>.>` (put, delete).
 */
function kvPermissions(service: NatsService, subjectPrefix: string): string[] {
  return Object.entries(KvBucketUsers).flatMap(([bucket, users]) => {
    const writes = users.writers.includes(service);
    if (!writes && !users.readers.includes(service)) return [];
    const name = kvBucketName(bucket, subjectPrefix);
    const stream = kvStreamName(bucket, subjectPrefix);
    return [
      '$JS.API.INFO',
      `$JS.API.STREAM.INFO.${stream}`,
      `$JS.API.STREAM.CREATE.${stream}`,
      `$JS.API.DIRECT.GET.${stream}`,
      `$JS.API.DIRECT.GET.${stream}.>`,
      `$JS.API.STREAM.MSG.GET.${stream}`,
      ...(writes ? [`$KV.${name}.>`] : []),
    ];
  });
}

export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
}

const addressed = new Set<string>(Object.values(AddressedSubjects).flatMap((s) => Object.values(s)));

/**
 * What a service's NATS user may publish and subscribe to, from CommandSenders and EventRecorders: its own
 * subjects (the commands it serves, and what its replicas tell each other), the commands it sends, the events
 * its outbox records, its own inbox, and for the services with a schema (all but voice, which keeps no outbox
 * and consumes no events) the JetStream API of the event stream only: make and read the stream, make,
 * read and pull its durable consumers, ack; and the key-value buckets KvBucketUsers gives it. Replies go out
 * through `allow_responses`.
 */
export function natsPermissions(service: NatsService, subjectPrefix = ''): NatsPermissions {
  const p = (subject: string) => (subjectPrefix ? `${subjectPrefix}.${subject}` : subject);
  const sends = (Object.keys(CommandSenders) as CommandSubject[])
    .filter((s) => CommandSenders[s].includes(service) && !s.startsWith(`${service}.`))
    .map((s) => (addressed.has(s) ? `${s}.*` : s));
  const records = (Object.keys(EventRecorders) as DomainEventSubject[]).filter(
    (e) => EventRecorders[e] === service,
  );
  const stream = eventStreamName(subjectPrefix);
  const jetStream = (SERVICE_NAMES as readonly string[]).includes(service)
    ? [
        '$JS.API.INFO',
        `$JS.API.STREAM.INFO.${stream}`,
        `$JS.API.STREAM.CREATE.${stream}`,
        `$JS.API.STREAM.UPDATE.${stream}`,
        `$JS.API.CONSUMER.CREATE.${stream}.>`,
        `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.>`,
        `$JS.API.CONSUMER.INFO.${stream}.*`,
        `$JS.API.CONSUMER.MSG.NEXT.${stream}.*`,
        `$JS.ACK.${stream}.>`,
      ]
    : [];
  return {
    publish: [
      ...new Set([
        p(`${service}.>`),
        ...sends.map(p),
        ...records.map(p),
        ...jetStream,
        ...kvPermissions(service, subjectPrefix),
      ]),
    ],
    subscribe: [
      p(`${service}.>`),
      ...(CoreEventSubscriptions[service] ?? []).map(p),
      `${inboxPrefixOf(service)}.>`,
    ],
  };
}

/** The environment variable the NATS server reads a service's password from. */
export function natsPasswordVariable(service: NatsService): string {
  return `NATS_${service.toUpperCase()}_PASSWORD`;
}

export interface NatsAccountsOptions {
  subjectPrefix?: string;
  /** The account the users live in (JetStream enabled in it). */
  account?: string;
  /** Each user's password; default: `$NATS_<SERVICE>_PASSWORD`, read by the server from its environment. */
  passwords?: Partial<Record<NatsService, string>>;
}

const quote = (s: string) => JSON.stringify(s);

/**
 * The nats-server configuration block of a deployment's users (`accounts { ... }`), one per service with
 * the permissions above, for `include` in the server's configuration.
 */
export function natsAccountsConfig(options: NatsAccountsOptions = {}): string {
  const list = (items: string[]) =>
    `[\n${items.map((i) => `              ${quote(i)}`).join(',\n')}\n            ]`;
  const users = NATS_SERVICES.map((service) => {
    const permissions = natsPermissions(service, options.subjectPrefix);
    const password = options.passwords?.[service];
    return [
      '      {',
      `        user: ${quote(service)}`,
      `        password: ${password === undefined ? `$${natsPasswordVariable(service)}` : quote(password)}`,
      '        permissions: {',
      `          publish: { allow: ${list(permissions.publish)} }`,
      `          subscribe: { allow: ${list(permissions.subscribe)} }`,
      '          allow_responses: true',
      '        }',
      '      }',
    ].join('\n');
  });
  return [
    '# One NATS user per service, with what it may publish and subscribe to. Generated from CommandSenders and',
    '# EventRecorders (libs/messages) by `npm run nats:config`: edit those, never this file.',
    'accounts {',
    `  ${options.account ?? 'VAP'} {`,
    '    jetstream: enabled',
    '    users: [',
    users.join('\n'),
    '    ]',
    '  }',
    '}',
    '',
  ].join('\n');
}

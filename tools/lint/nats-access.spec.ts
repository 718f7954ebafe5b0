// The NATS permissions are generated from CommandSenders and EventRecorders (libs/messages). Here: those maps say
// what the apps' sources do (no command sent or event recorded without its permission, no permission left over),
// and the accounts files the deployments run are the generated ones.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  AddressedSubjects,
  CommandSenders,
  CommandSubject,
  DomainEvents,
  EventRecorders,
  NatsService,
  Subjects,
} from '@vap/messages';
import { NATS_SERVICES, natsAccountsConfig } from '@vap/messaging';

const ROOT = resolve(__dirname, '..', '..');

/** The production sources of an app, specs and test kits left out. */
function sourcesOf(app: string): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'testing') walk(path);
      } else if (name.endsWith('.ts') && !name.endsWith('.spec.ts')) files.push(path);
    }
  };
  walk(join(ROOT, 'apps', app, 'src'));
  return files.map((f) => readFileSync(f, 'utf8')).join('\n');
}

const subjectsByRef = (group: Record<string, Record<string, string>>, name: string, ref: string) => {
  const [, service, key] = ref.split('.');
  const value = group[service]?.[key];
  if (!value) throw new Error(`${name}: unknown ${ref}`);
  return value;
};

/** The commands an app names but does not serve (so sends), read from its sources. */
function commandsSentBy(app: NatsService): string[] {
  const source = sourcesOf(app);
  const sent = new Set<string>();
  for (const [ref] of source.matchAll(/\bSubjects\.[a-z]+\.[A-Za-z]+/g)) {
    const subject = subjectsByRef(Subjects, app, ref);
    if (!subject.startsWith(`${app}.`)) sent.add(subject);
  }
  // A lib helper that sends a command on the app's behalf.
  if (/\bassertOwnAgent\(/.test(source)) sent.add(Subjects.agents.agentGet);
  for (const [ref] of source.matchAll(/\bAddressedSubjects\.[a-z]+\.[A-Za-z]+/g)) {
    const subject = subjectsByRef(AddressedSubjects, app, ref.replace(/^Addressed/, ''));
    if (!subject.startsWith(`${app}.`)) sent.add(subject);
  }
  return [...sent].sort();
}

/** The events an app's outbox records (`outbox.record(em, DomainEvents.x, ...)`). */
function eventsRecordedBy(app: NatsService): string[] {
  const recorded = new Set<string>();
  for (const [, key] of sourcesOf(app).matchAll(/\.record\(\s*[^,()]+,\s*DomainEvents\.(\w+)/g)) {
    recorded.add(DomainEvents[key as keyof typeof DomainEvents]);
  }
  return [...recorded].sort();
}

describe('NATS permissions and the apps’ sources', () => {
  it.each(NATS_SERVICES)('%s sends exactly the commands CommandSenders lets it send', (app) => {
    const allowed = (Object.keys(CommandSenders) as CommandSubject[])
      // Health pings are sent by the runtime for the gateway's readiness, not named in the app's sources.
      .filter((s) => CommandSenders[s].includes(app) && !s.endsWith('.health.ping'))
      .sort();
    expect(commandsSentBy(app)).toEqual(allowed);
  });

  it.each(NATS_SERVICES)('%s records exactly the events EventRecorders gives it', (app) => {
    const owned = Object.entries(EventRecorders)
      .filter(([, recorder]) => recorder === app)
      .map(([event]) => event)
      .sort();
    expect(eventsRecordedBy(app)).toEqual(owned);
  });

  it('lets the gateway ping every service its readiness asks for, and nothing else ping', () => {
    const pings = Object.entries(CommandSenders).filter(([s]) => s.endsWith('.health.ping'));
    expect(Object.fromEntries(pings)).toEqual({
      'gateway.health.ping': [],
      'agents.health.ping': ['gateway'],
      'calls.health.ping': ['gateway'],
      'campaigns.health.ping': ['gateway'],
      'webhooks.health.ping': ['gateway'],
    });
  });
});

describe('the NATS accounts the deployments run', () => {
  it.each(['docker/nats/accounts.conf', 'k8s/base/nats/accounts.conf'])(
    '%s is the generated one (npm run nats:config)',
    (file) => {
      expect(readFileSync(join(ROOT, file), 'utf8')).toBe(natsAccountsConfig());
    },
  );
});

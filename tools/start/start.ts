/**
 * `npm start`: runs the whole platform from the build output on this machine.
 *
 * Postgres: DATABASE_URL, else 127.0.0.1:5432, else an embedded server under .data/.
 * NATS: NATS_URL, else 127.0.0.1:4222, else `nats-server` from PATH with JetStream under .data/.
 * Then the services and the gateway, each line of output behind its name: the gateway on PORT (default
 * 3000; taken is an error), the services on 3001..3005, or on a free port (said in one line) when theirs is
 * taken, since only their health and metrics listen there (and, on voice, media streams, whose URL follows
 * the port). The apps run with NODE_ENV=development and inherit this script's environment unchanged but for
 * the settings it owns; where the environment leaves them unset, PUBLIC_BASE_URL (callback, recording and
 * upload URLs) is the gateway started here, MEDIA_PUBLIC_URL (carriers' media streams) the voice app, and the
 * secrets the development ones (start-env.ts; docs/configuration.md lists both).
 * Ctrl-C stops the apps (SIGTERM, wait), then whatever infrastructure this script started. The apps also stop
 * by themselves when this script ends any other way (a closed terminal, SIGKILL): each watches a pipe from it.
 * A second start on the same database or NATS subject prefix, anywhere on this machine, is refused in one line
 * naming the running one (see start-lock.ts), rather than sharing its work.
 *
 * Local speech (voice's development default: Debian's espeak-ng, pocketsphinx, pocketsphinx-en-us and
 * python3-pocketsphinx) is installed with apt-get when missing, as root or with passwordless sudo; elsewhere the
 * command is printed and voice runs calls on the offline signal engine.
 *
 * Reads DATABASE_URL, NATS_URL, PORT (gateway) and NATS_SUBJECT_PREFIX from the environment or a .env file
 * at the root, and hands every other setting there to the apps.
 * Options: --only agents,calls   start just those apps (add `gateway` to include it).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withoutPassword } from '@vap/runtime';
import { ensureDatabaseExists } from '@vap/persistence';
import { DEV_ADMIN_TOKEN } from '@vap/secrets';
import {
  assertJetStream,
  BACKEND_SERVICES,
  DEFAULT_PORTS,
  describeExit,
  formatLogLine,
  freePort,
  isPortFree,
  Platform,
  PlatformApp,
  ResolvedNats,
  ResolvedPostgres,
  resolveNats,
  resolvePostgres,
  ServiceHandle,
  startPlatform,
  workspaceRoot,
} from '@vap/testing';
import { ensureLocalSpeech } from './local-speech-install';
import { startEnvOf } from './start-env';
import { claimInfrastructure, infrastructureOf } from './start-lock';

const DATABASE_NAME = 'voice_agent_platform';

const say = (line: string) => process.stdout.write(`[start] ${line}\n`);
const complain = (line: string) => process.stderr.write(`[start] ${line}\n`);

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function parseOnly(argv: string[]): PlatformApp[] | undefined {
  const i = argv.indexOf('--only');
  if (i < 0) return undefined;
  const names = (argv[i + 1] ?? '').split(',').filter(Boolean);
  const known = [...BACKEND_SERVICES, 'gateway'];
  const unknown = names.filter((n) => !known.includes(n));
  if (!names.length || unknown.length) {
    throw new Error(`--only takes a comma-separated list of ${known.join(', ')}`);
  }
  return names as PlatformApp[];
}

class Runner {
  private readonly abort = new AbortController();
  private postgres?: ResolvedPostgres;
  private nats?: ResolvedNats;
  private platform?: Platform;
  private starting?: Promise<void>;
  private stopping?: Promise<number>;
  private signals = 0;

  async run(): Promise<void> {
    // Once the terminal is gone (SIGHUP) writing to it fails; the shutdown must go on regardless.
    for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
      process.on(signal, () => this.onSignal(signal));
    try {
      this.starting = this.start();
      await this.starting;
    } catch (err) {
      if (this.stopping) return; // a signal interrupted the start; shutdown is under way
      complain(`could not start: ${(err as Error).message}`);
      process.exit(await this.shutdown(1));
    }
  }

  private async start(): Promise<void> {
    const only = parseOnly(process.argv.slice(2));
    const root = workspaceRoot();
    // Like the apps, a developer's .env at the root fills what the environment leaves unset.
    if (existsSync(join(root, '.env'))) process.loadEnvFile(join(root, '.env'));
    const dataDir = join(root, '.data');
    const gatewayPort = process.env.PORT ? Number(process.env.PORT) : DEFAULT_PORTS.gateway;
    if (!Number.isInteger(gatewayPort) || gatewayPort <= 0 || gatewayPort > 65535) {
      throw new Error(`PORT must be a TCP port number, got ${JSON.stringify(process.env.PORT)}`);
    }
    const services = BACKEND_SERVICES.filter((s) => !only || only.includes(s));
    const withGateway = !only || only.includes('gateway');
    const ports: Record<PlatformApp, number> = { ...DEFAULT_PORTS, gateway: gatewayPort };
    const apps: PlatformApp[] = [...services, ...(withGateway ? (['gateway'] as const) : [])];
    this.postgres = await resolvePostgres({ dataDir, onNote: say });
    this.throwIfStopping();
    say(
      `Postgres: ${withoutPassword(this.postgres.url)} (${describeSource(this.postgres.source, 'DATABASE_URL')})`,
    );
    this.nats = await resolveNats({ dataDir, ownProcessGroup: true, onNote: say });
    this.throwIfStopping();
    say(`NATS: ${this.nats.url} (${describeSource(this.nats.source, 'NATS_URL')})`);
    await assertJetStream(this.nats.url);

    const databaseUrl =
      this.postgres.source === 'env' ? this.postgres.url : withDatabase(this.postgres.url, DATABASE_NAME);
    const subjectPrefix = process.env.NATS_SUBJECT_PREFIX ?? '';
    // Before the ports: a start already running on this infrastructure is the likelier reason they are taken.
    claimInfrastructure(infrastructureOf(databaseUrl, this.nats.url, subjectPrefix), {
      root,
      gatewayUrl: withGateway ? `http://127.0.0.1:${gatewayPort}` : undefined,
    });
    if (withGateway && !(await isPortFree(gatewayPort))) {
      throw new Error(
        `port ${gatewayPort} (gateway) is in use: is the platform already running? Set PORT to a free port`,
      );
    }
    for (const app of services) {
      if (await isPortFree(ports[app])) continue;
      const port = await freePort();
      const serves =
        app === 'voice'
          ? 'media streams, health and metrics'
          : app === 'sandbox-carrier'
            ? "the sandbox's carrier API"
            : 'health and metrics only';
      say(`port ${ports[app]} (${app}) is in use: ${app} listens on ${port} instead (${serves})`);
      ports[app] = port;
    }
    await ensureDatabaseExists(databaseUrl);
    this.throwIfStopping();
    // The voice service's development speech (eSpeak NG, PocketSphinx): installed when missing, where it may be.
    if (services.includes('voice')) await ensureLocalSpeech(process.env, say, complain);
    this.throwIfStopping();

    const env = startEnvOf(process.env, { gatewayPort, voicePort: ports.voice });
    say(
      `starting ${apps.join(', ')} (public base URL ${env.PUBLIC_BASE_URL}, media URL ${env.MEDIA_PUBLIC_URL})`,
    );
    this.platform = await startPlatform({
      databaseUrl,
      natsUrl: this.nats.url,
      subjectPrefix,
      env,
      services,
      gatewayReplicas: withGateway ? 1 : 0,
      ports,
      gatewayPorts: [gatewayPort],
      prefixLogs: true,
      // Ctrl-C reaches this script only; it stops the platform (the sandbox carrier, the gateway, then the
      // services), then infrastructure.
      ownProcessGroup: true,
      signal: this.abort.signal,
      rootDir: root,
    });
    for (const app of this.platform.all()) void app.exited.then((info) => this.onExit(app, info));
    this.printBanner(withGateway ? this.platform.gatewayUrl : undefined, env.ADMIN_API_TOKEN!);
  }

  private printBanner(gatewayUrl: string | undefined, adminToken: string): void {
    const lines = ['', 'Voice agent platform is running (development).'];
    if (gatewayUrl) {
      const tokenNote = adminToken === DEV_ADMIN_TOKEN ? adminToken : '(the value of ADMIN_API_TOKEN)';
      lines.push(
        `  API base URL     ${gatewayUrl}/api/v2`,
        `  Swagger UI       ${gatewayUrl}/api/v2/docs`,
        `  OpenAPI JSON     ${gatewayUrl}/api/v2/openapi.json`,
        `  Operator API     ${gatewayUrl}/admin/v1   Authorization: Bearer ${tokenNote}`,
        `  Create a partner npm run admin -- <command>, or POST ${gatewayUrl}/admin/v1/partners`,
        `  Voice demo       ${gatewayUrl}/demo/voice   (talk to an agent from the browser)`,
        `  Partner console  ${gatewayUrl}/console/   (sign in with an operator's invitation link)`,
      );
    }
    for (const app of this.platform!.all().filter((a) => !a.name.startsWith('gateway'))) {
      lines.push(`  ${app.name.padEnd(16)} ${app.url}`);
    }
    lines.push('Press Ctrl-C to stop.', '');
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  private throwIfStopping(): void {
    if (this.stopping) throw new Error('stopping');
  }

  private onExit(app: ServiceHandle, info: { code: number | null; signal: NodeJS.Signals | null }): void {
    if (this.stopping) return;
    complain(`${app.name} ${describeExit(info)}; stopping the platform. Its last output:`);
    for (const line of app.recentOutput(20)) complain(`  ${formatLogLine(line)}`);
    void this.shutdown(1).then((code) => process.exit(code));
  }

  private onSignal(signal: NodeJS.Signals): void {
    this.signals += 1;
    if (this.signals > 1) {
      complain(`${signal} again: killing everything now`);
      for (const app of this.platform?.all() ?? []) {
        try {
          process.kill(app.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      void Promise.allSettled([this.nats?.stop(), this.postgres?.stop()]).then(() => process.exit(130));
      return;
    }
    say(`${signal} received: stopping (press Ctrl-C again to force)`);
    void this.shutdown(0).then((code) => process.exit(code));
  }

  /** Stops the apps, then the Postgres/NATS this script started. Resolves with the exit code to use. */
  private shutdown(code: number): Promise<number> {
    this.stopping ??= (async () => {
      this.abort.abort();
      // An interrupted start cleans up the apps it launched; let it finish before stopping the infrastructure.
      await this.starting?.catch(() => undefined);
      let exitCode = code;
      try {
        await this.platform?.stop();
      } catch (err) {
        complain(`stopping the apps: ${(err as Error).message}`);
        exitCode = exitCode || 1;
      }
      for (const [what, infra] of [
        ['NATS', this.nats],
        ['Postgres', this.postgres],
      ] as const) {
        try {
          await infra?.stop();
        } catch (err) {
          complain(`stopping ${what}: ${(err as Error).message}`);
          exitCode = exitCode || 1;
        }
      }
      if (exitCode === 0) say('stopped');
      return exitCode;
    })();
    return this.stopping;
  }
}

function describeSource(source: string, envName: string): string {
  switch (source) {
    case 'env':
      return `from ${envName}`;
    case 'local':
      return 'local server';
    default:
      return 'started here, stopped on exit';
  }
}

void new Runner().run();

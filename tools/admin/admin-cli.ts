/**
 * Operator CLI over the operator API (/admin/v1). `npm run admin -- <command> [--flags]`.
 * Talks to GATEWAY_URL (default http://127.0.0.1:3000) with ADMIN_API_TOKEN (default dev-admin-token).
 * Two commands work offline, on deployment settings: derive-stream-token-key and nats-config.
 */
import { parseArgs } from 'node:util';
import { natsAccountsConfig } from '@vap/messaging';
import { streamTokenKeyOf } from '@vap/secrets';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-partner --name <name> [--balance <inr>] [--concurrency <n>] [--status approved|pending|suspended] [--tier standard|premium|enterprise]
  update-partner <partnerId> [--name <name>] [--balance <inr>] [--concurrency <n>] [--status ...] [--tier ...]
  get-partner <partnerId>
  list-partners
  create-key <partnerId> [--name <label>] [--scopes <scope,scope,...>]   (no --scopes: full access)
  list-keys <partnerId>
  revoke-key <partnerId> <keyId>
  invite-user <partnerId> --email <email> --name <name> --role owner|admin|developer|viewer
                                 a console user: answers the one-time invitation link to pass on
  list-users <partnerId>
  reset-password <partnerId> <userId>
                                 a one-time password-reset link for a console user
  remove-user <partnerId> <userId>
  voices [--status active|retired] [--provider <p>] [--tier ...]
                                 the voice catalog, retired voices included
  voice-add --name <display name> --provider <p> --model <model> --voice <provider voice id> --language <locale>
            --gender female|male --preview <text> [--tier ...] [--description <text>] [--speed <n>] [--volume <n>]
  voice-update <voiceId> [the voice-add options to change]
  voice-retire <voiceId>         offered to no one from now on; agents that have it keep it

Offline:
  derive-stream-token-key        voice's STREAM_TOKEN_KEY, derived from SECRETS_KEY (read from the environment)
  nats-config [--subject-prefix <prefix>]
                                 the NATS server's accounts block: one user per service, with its permissions

Environment: GATEWAY_URL (default http://127.0.0.1:3000), ADMIN_API_TOKEN (default dev-admin-token)`;

type Body = Record<string, unknown>;

function partnerFields(values: Record<string, string | boolean | undefined>): Body {
  const body: Body = {};
  if (typeof values.name === 'string') body.name = values.name;
  if (typeof values.balance === 'string') body.balance_inr = Number(values.balance);
  if (typeof values.concurrency === 'string') body.concurrency_limit = Number(values.concurrency);
  if (typeof values.status === 'string') body.status = values.status;
  if (typeof values.tier === 'string') body.voice_tier = values.tier;
  return body;
}

/** The catalog voice fields the voice commands' options set (a partner's --name is a voice's display_name). */
function voiceFields(values: Record<string, string | boolean | undefined>): Body {
  const body: Body = {};
  const text = (option: string, field: string) => {
    if (typeof values[option] === 'string') body[field] = values[option];
  };
  const number = (option: string, field: string) => {
    if (typeof values[option] === 'string') body[field] = Number(values[option]);
  };
  text('name', 'display_name');
  text('description', 'description');
  text('provider', 'provider');
  text('model', 'model_name');
  text('tier', 'tier');
  text('voice', 'provider_voice_id');
  number('speed', 'speed');
  number('volume', 'volume');
  text('language', 'language');
  text('gender', 'gender');
  text('preview', 'preview_text');
  return body;
}

async function call(method: string, path: string, body?: Body): Promise<unknown> {
  const base = (process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
  const token = process.env.ADMIN_API_TOKEN ?? 'dev-admin-token';
  let res: Response;
  try {
    res = await fetch(`${base}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    throw new Error(
      `cannot reach the gateway at ${base} (${(err as Error).message}); is the platform running?`,
    );
  }
  const json = (await res.json().catch(() => null)) as {
    success?: boolean;
    data?: unknown;
    error?: { code: string; message: string };
  } | null;
  if (!res.ok || !json?.success) {
    throw new Error(json?.error ? `${json.error.code}: ${json.error.message}` : `HTTP ${res.status}`);
  }
  return json.data;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      balance: { type: 'string' },
      concurrency: { type: 'string' },
      status: { type: 'string' },
      tier: { type: 'string' },
      scopes: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      'subject-prefix': { type: 'string' },
      description: { type: 'string' },
      provider: { type: 'string' },
      model: { type: 'string' },
      voice: { type: 'string' },
      speed: { type: 'string' },
      volume: { type: 'string' },
      language: { type: 'string' },
      gender: { type: 'string' },
      preview: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...args] = positionals;
  const need = (n: number) => {
    if (args.length < n) throw new Error(`${command} needs ${n} argument(s)\n\n${USAGE}`);
  };
  let data: unknown;
  switch (command) {
    case 'derive-stream-token-key':
      // From the environment, not an argument: the master key stays out of shell history and process lists.
      if (!process.env.SECRETS_KEY)
        throw new Error('derive-stream-token-key reads SECRETS_KEY from the environment');
      process.stdout.write(`${streamTokenKeyOf(process.env.SECRETS_KEY)}\n`);
      return 0;
    case 'nats-config':
      process.stdout.write(natsAccountsConfig({ subjectPrefix: values['subject-prefix'] }));
      return 0;
    case 'create-partner':
      if (typeof values.name !== 'string') throw new Error('create-partner needs --name');
      data = await call('POST', '/partners', partnerFields(values));
      break;
    case 'update-partner':
      need(1);
      data = await call('PATCH', `/partners/${encodeURIComponent(args[0])}`, partnerFields(values));
      break;
    case 'get-partner':
      need(1);
      data = await call('GET', `/partners/${encodeURIComponent(args[0])}`);
      break;
    case 'list-partners':
      data = await call('GET', '/partners');
      break;
    case 'create-key':
      need(1);
      data = await call('POST', `/partners/${encodeURIComponent(args[0])}/api-keys`, {
        ...(typeof values.name === 'string' ? { name: values.name } : {}),
        ...(typeof values.scopes === 'string'
          ? {
              scopes: values.scopes
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            }
          : {}),
      });
      break;
    case 'list-keys':
      need(1);
      data = await call('GET', `/partners/${encodeURIComponent(args[0])}/api-keys`);
      break;
    case 'revoke-key':
      need(2);
      data = await call(
        'DELETE',
        `/partners/${encodeURIComponent(args[0])}/api-keys/${encodeURIComponent(args[1])}`,
      );
      break;
    case 'invite-user':
      need(1);
      data = await call('POST', `/partners/${encodeURIComponent(args[0])}/users`, {
        email: values.email,
        name: values.name,
        role: values.role,
      });
      break;
    case 'list-users':
      need(1);
      data = await call('GET', `/partners/${encodeURIComponent(args[0])}/users`);
      break;
    case 'reset-password':
      need(2);
      data = await call(
        'POST',
        `/partners/${encodeURIComponent(args[0])}/users/${encodeURIComponent(args[1])}/password-reset`,
      );
      break;
    case 'remove-user':
      need(2);
      data = await call(
        'DELETE',
        `/partners/${encodeURIComponent(args[0])}/users/${encodeURIComponent(args[1])}`,
      );
      break;
    case 'voices': {
      const query = new URLSearchParams();
      for (const key of ['status', 'provider', 'tier'] as const) {
        if (typeof values[key] === 'string') query.set(key, values[key]);
      }
      data = await call('GET', `/voices${query.size ? `?${query}` : ''}`);
      break;
    }
    case 'voice-add':
      data = await call('POST', '/voices', { tier: 'standard', ...voiceFields(values) });
      break;
    case 'voice-update':
      need(1);
      data = await call('PATCH', `/voices/${encodeURIComponent(args[0])}`, voiceFields(values));
      break;
    case 'voice-retire':
      need(1);
      data = await call('POST', `/voices/${encodeURIComponent(args[0])}/retire`);
      break;
    default:
      process.stdout.write(`${USAGE}\n`);
      return command && !values.help ? 2 : 0;
  }
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`admin: ${err.message}\n`);
    process.exit(1);
  },
);

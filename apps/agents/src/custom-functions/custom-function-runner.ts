import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ValidateFunction } from 'ajv';
import { DataSource } from 'typeorm';
import {
  argumentsShapeProblem,
  compileArgumentsSchema,
  CustomFunctionLimits,
  CustomFunctionTestResultDto,
  describeArgumentErrors,
  parametersProblem,
  parseResponsePath,
  readResponsePath,
  ResponsePathSegment,
} from '@vap/api';
import {
  AppError,
  boundedFunctionTimeoutMs,
  CUSTOM_FUNCTION_MAX_RESPONSE_BYTES,
  CustomFunctionId,
  CustomFunctionInvokeReply,
  CustomFunctionInvokeRequest,
  INTEGRATION_LOG_EXCERPT_CHARS,
  IntegrationRequestKind,
  PartnerRequestCallContext,
  IntegrationLogId,
} from '@vap/messages';
import { ConnectionCredential, ConnectionCredentials } from '../connectors/connection-credentials';
import { PartnerRequestClient } from '../partner-requests/partner-request-client';
import { CustomFunctionCache } from './custom-function-cache';
import { CustomFunctionSecrets } from './custom-function-secrets';
import { CustomFunction } from './entities/custom-function.entity';

/** A function ready to run: its schema compiled and its secrets opened, for one version of the row. */
interface PreparedFunction {
  key: string;
  /** Null when the stored schema no longer compiles (saved under older rules): nothing is sent then. */
  validate: ValidateFunction | null;
  headers: Record<string, string>;
  signingSecret: string;
  variables: [string, ResponsePathSegment[]][];
}

/** Prepared functions kept at most; the least recently used goes first. */
const PREPARED_CACHE_SIZE = 2000;

/** What the partner receives (JSON): the function, the validated arguments and the call they are for. */
export interface CustomFunctionPayload {
  function: { id: string; name: string };
  arguments: Record<string, unknown>;
  call: {
    id: string | null;
    browser_session_id: string | null;
    agent_id: string | null;
    direction: string | null;
    from_number: string | null;
    to_number: string | null;
    /** The call's customer (`cus_<uuid>`), or the test's customer_id; null when it has none. */
    customer_id: string | null;
    variables: Record<string, unknown>;
  };
  /** True for POST /custom-functions/{id}/test: no call is waiting for the answer. */
  test: boolean;
}

type RunResult = Omit<CustomFunctionInvokeReply, 'result'> & { result: string };

/**
 * Runs custom functions: for a call (agents.custom_function.invoke) and for a partner's test. A call's tool
 * call reads the function's row from the cache (CustomFunctionCache), so nothing waits for the database before
 * the request leaves; its schema is compiled and its secrets opened once per version of the row, not per call.
 */
@Injectable()
export class CustomFunctionRunner {
  private readonly prepared = new Map<string, PreparedFunction>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: CustomFunctionSecrets,
    private readonly client: PartnerRequestClient,
    private readonly cache: CustomFunctionCache,
    private readonly credentials: ConnectionCredentials,
  ) {}

  async invoke(req: CustomFunctionInvokeRequest): Promise<CustomFunctionInvokeReply> {
    const fn =
      this.cache.get(req.partnerId, req.functionId) ?? (await this.load(req.partnerId, req.functionId));
    if (!fn) {
      return {
        outcome: 'not_found',
        status: null,
        latencyMs: 0,
        result: '',
        error: 'this function no longer exists',
        variables: {},
        logId: null,
      };
    }
    // The call's snapshot of the timeout (its timeoutMs), never the row's: one value for the call, taken when it started.
    const timeoutMs = boundedFunctionTimeoutMs(req.timeoutMs);
    return this.run(fn, parsedArguments(req.arguments), req.context, 'custom_function', timeoutMs);
  }

  /** `customerId`: the test's customer_id, checked by the gateway (which owns customers) to be the account's. */
  async test(
    partnerId: string,
    id: string,
    args: unknown,
    customerId: string | null,
  ): Promise<CustomFunctionTestResultDto> {
    const fn = this.cache.get(partnerId, id) ?? (await this.load(partnerId, id));
    if (!fn) throw AppError.notFound('Custom function');
    const r = await this.run(fn, args ?? {}, null, 'custom_function_test', fn.timeoutMs, customerId);
    return {
      outcome: r.outcome,
      status: r.status,
      latency_ms: r.latencyMs,
      response_excerpt: r.logId === null ? null : r.result.slice(0, INTEGRATION_LOG_EXCERPT_CHARS),
      error: r.error,
      variables: r.variables,
      log_id: r.logId === null ? null : IntegrationLogId.format(r.logId),
    };
  }

  private async load(partnerId: string, id: string): Promise<CustomFunction | null> {
    if (!CustomFunctionId.is(id)) return null;
    const readAt = this.cache.version;
    const fn = await this.dataSource.getRepository(CustomFunction).findOneBy({ id, partnerId });
    if (fn) this.cache.set(fn, readAt);
    return fn;
  }

  private async run(
    fn: CustomFunction,
    args: unknown,
    context: PartnerRequestCallContext | null,
    kind: IntegrationRequestKind,
    timeoutMs: number,
    testCustomerId: string | null = null,
  ): Promise<RunResult> {
    // A call's customer comes with its context; a test (no context) names one with customer_id, or none.
    const customerId = context ? (context.customerId ?? null) : testCustomerId;
    const ready = this.prepare(fn);
    if (!ready.validate) {
      return {
        outcome: 'refused',
        status: null,
        latencyMs: 0,
        result: '',
        error: 'not sent: the function’s parameters schema is no longer accepted; save it again without it',
        variables: {},
        logId: null,
      };
    }
    const problem =
      argumentsShapeProblem(args) ??
      (ready.validate(args) ? null : describeArgumentErrors(ready.validate.errors));
    if (problem) {
      // Nothing leaves the platform: the model is told what to fix and may call again.
      return {
        outcome: 'invalid_arguments',
        status: null,
        latencyMs: 0,
        result: '',
        error: problem,
        variables: {},
        logId: null,
      };
    }
    const payload: CustomFunctionPayload = {
      function: { id: fn.id, name: fn.name },
      arguments: args as Record<string, unknown>,
      call: {
        id: context?.callId ?? null,
        browser_session_id: context?.browserSessionId ?? null,
        agent_id: context?.agentId ?? null,
        direction: context?.direction ?? null,
        from_number: context?.fromNumber ?? null,
        to_number: context?.toNumber ?? null,
        customer_id: customerId,
        variables: context?.variables ?? {},
      },
      test: context === null,
    };
    let credential: ConnectionCredential | null = null;
    if (fn.auth) {
      const found =
        context === null && customerId === null
          ? ({
              ok: false,
              error: 'a test runs outside any call: send a customer_id to use that customer’s connection',
            } as const)
          : await this.credentials.forCall(fn.partnerId, customerId, fn.auth.connector_id);
      if (!found.ok) return notConnected(found.error, null);
      credential = found.credential;
    }
    const started = performance.now();
    const send = (cred: ConnectionCredential | null, budgetMs: number) =>
      this.client.send({
        partnerId: fn.partnerId,
        kind,
        functionId: fn.id,
        hookId: null,
        context,
        method: fn.method,
        url: fn.url,
        payload: JSON.stringify(payload),
        signingSecret: ready.signingSecret,
        staticHeaders: cred ? withCredentialHeaders(ready.headers, cred.headers) : ready.headers,
        secretQuery: cred?.query ?? null,
        timeoutMs: budgetMs,
        maxResponseBytes: CUSTOM_FUNCTION_MAX_RESPONSE_BYTES,
      });
    let res = await send(credential, timeoutMs);
    if (res.status === 401 && credential?.refreshable) {
      // RFC 6750 §3.1: the token was refused (revoked or expired early): refresh once, then try once more.
      const renewed = await this.credentials.refresh(credential.connectionId, credential.accessToken);
      if (!renewed.ok) return notConnected(renewed.error, res.logId);
      const left = timeoutMs - (performance.now() - started);
      if (left >= CustomFunctionLimits.timeoutMsMin) res = await send(renewed.credential, Math.floor(left));
    }
    const readable = isReadable(res.contentType);
    return {
      outcome: res.outcome,
      status: res.status,
      latencyMs: res.latencyMs,
      result: readable
        ? res.body
        : `(an answer of type ${res.contentType}, not passed on: answer with JSON or text)`,
      error: res.error,
      variables:
        res.outcome === 'success' && readable && !res.truncated ? variablesOf(res.body, ready.variables) : {},
      logId: res.logId,
    };
  }

  private prepare(fn: CustomFunction): PreparedFunction {
    const key = `${fn.id}:${fn.version}`;
    const cached = this.prepared.get(key);
    if (cached) {
      // Re-inserted: Map order is the recency order the eviction below relies on.
      this.prepared.delete(key);
      this.prepared.set(key, cached);
      return cached;
    }
    const ready: PreparedFunction = {
      key,
      validate: compiledOrNull(fn.parameters),
      headers: this.secrets.openHeaders(fn.id, fn.headersSealed),
      signingSecret: this.secrets.openSigningSecret(fn.id, fn.signingSecretSealed),
      variables: Object.entries(fn.responseVariables).flatMap(([name, path]) => {
        const segments = parseResponsePath(path);
        return segments ? [[name, segments] as [string, ResponsePathSegment[]]] : [];
      }),
    };
    // An older version of the same function is of no further use.
    for (const k of this.prepared.keys()) if (k.startsWith(`${fn.id}:`)) this.prepared.delete(k);
    this.prepared.set(key, ready);
    if (this.prepared.size > PREPARED_CACHE_SIZE) this.prepared.delete(this.prepared.keys().next().value!);
    return ready;
  }
}

/** A function that needs the customer's connection and has none: nothing (more) is sent; the model is told why. */
function notConnected(error: string, logId: string | null): RunResult {
  return { outcome: 'not_connected', status: null, latencyMs: 0, result: '', error, variables: {}, logId };
}

/** The function's static headers with the connection's over them (header names compare without case). */
export function withCredentialHeaders(
  headers: Record<string, string>,
  credential: Record<string, string>,
): Record<string, string> {
  const replaced = new Set(Object.keys(credential).map((n) => n.toLowerCase()));
  const kept = Object.entries(headers).filter(([n]) => !replaced.has(n.toLowerCase()));
  return { ...Object.fromEntries(kept), ...credential };
}

/**
 * The stored schema compiled, or null when it does not compile: rows saved before the schema rules tightened
 * (a `pattern` somewhere, a remote `$ref`) are never compiled with a regular expression or a remote schema.
 */
function compiledOrNull(schema: Record<string, unknown>): ValidateFunction | null {
  // The rules compile it too: once per version of the row, as prepare() keeps what it made.
  return parametersProblem(schema) === null ? compileArgumentsSchema(schema) : null;
}

/** Arguments as the model wrote them (a JSON text) are read here too; anything else is judged as given. */
export function parsedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** Answers the model can read: JSON and text (or no type given). Images, PDFs and the like are not passed on. */
export function isReadable(contentType: string): boolean {
  return (
    contentType === '' ||
    contentType.startsWith('text/') ||
    contentType === 'application/json' ||
    contentType.endsWith('+json') ||
    contentType === 'application/xml' ||
    contentType.endsWith('+xml') ||
    contentType === 'application/x-www-form-urlencoded'
  );
}

/** response_variables applied to a JSON answer: the variables whose path names a value. */
export function variablesOf(body: string, paths: [string, ResponsePathSegment[]][]): Record<string, unknown> {
  if (paths.length === 0) return {};
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const [name, segments] of paths) {
    const value = readResponsePath(answer, segments);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

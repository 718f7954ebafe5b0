import Ajv, { type AnySchema, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** One answer the gateway gave, as a client saw it. */
export interface ObservedResponse {
  method: string;
  /** The request's path, with or without a query string (an absolute URL is taken too). */
  path: string;
  status: number;
  contentType: string | null;
  /** Parsed JSON for a JSON answer, else the text (undefined when empty). */
  body: unknown;
}

type Schema = Record<string, unknown>;
interface MediaType {
  schema?: Schema;
}
interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
}
interface Operation {
  responses?: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const DOC_ID = 'https://openapi.invalid/document.json';

/** The documentation routes themselves (Swagger UI, the JSON and YAML documents) are not API operations. */
const DOCUMENTATION_PATH = /^\/api\/v\d+\/(docs(\/.*)?|openapi\.(json|yaml))$/i;

interface Route {
  template: string;
  pattern: RegExp;
  /** Literal segments first: `/agent/voices` wins over `/agent/{id}`, as OpenAPI path matching says. */
  literals: number;
  operations: Record<string, Operation>;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Rewrites the document's local references so that they resolve inside the schema registered as DOC_ID. */
function anchorRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(anchorRefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : anchorRefs(v),
    ]),
  );
}

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/**
 * Checks real answers against an OpenAPI document: the route and method must be an operation of the
 * document, the status one of its responses, the content type one it declares, and a JSON body must
 * validate against the schema. OpenAPI 3.0 `nullable` gets the 3.0.3 meaning (it adds null to the `type`
 * beside it, nothing else; Ajv implements exactly that), and 3.1 documents are plain JSON Schema 2020-12.
 */
export class OpenApiConformance {
  private readonly routes: Route[];
  private readonly roots: RegExp;
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction | Error>();

  constructor(doc: OpenApiDocument) {
    const is31 = /^3\.1\./.test(doc.openapi);
    this.ajv = is31
      ? new Ajv2020({ strict: false, allErrors: true })
      : new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(anchorRefs({ components: doc.components ?? {} }) as AnySchema, DOC_ID);

    this.routes = Object.entries(doc.paths)
      .map(([template, operations]) => {
        const segments = template.split('/').filter(Boolean);
        const source = segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : escapeRegExp(s))).join('/');
        return {
          template,
          // Express routes case-insensitively and ignores one trailing slash; match the way it does.
          pattern: new RegExp(`^/${source}/?$`, 'i'),
          literals: segments.filter((s) => !s.startsWith('{')).length,
          operations,
        };
      })
      .sort((a, b) => b.literals - a.literals);
    const rootPrefixes = [...new Set(this.routes.map((r) => r.template.split('/').slice(0, 3).join('/')))];
    this.roots = new RegExp(`^(${rootPrefixes.map(escapeRegExp).join('|')})(/|$)`, 'i');
  }

  /** The document's path template for a request path, if any. */
  templateOf(path: string): string | undefined {
    const bare = this.pathOnly(path);
    return this.routes.find((r) => r.pattern.test(bare))?.template;
  }

  /** What is wrong with this answer; empty when it agrees with the document. */
  check(res: ObservedResponse): string[] {
    const path = this.pathOnly(res.path);
    const method = res.method.toLowerCase();
    const label = `${res.method.toUpperCase()} ${path} -> ${res.status}`;
    // Health probes and the documentation routes are outside the API the document describes.
    if (!this.roots.test(path) || DOCUMENTATION_PATH.test(path)) return [];

    const route = this.routes.find((r) => r.pattern.test(path));
    const operation = route?.operations[method];
    if (!route || !operation || !METHODS.includes(method)) {
      // The router's own "no such route" answer is what the document promises for a route it lacks.
      if (res.status === 404 && this.isNoRouteAnswer(res.body)) return [];
      return [
        `${label}: no operation in the document for ${res.method.toUpperCase()} ${route?.template ?? path}`,
      ];
    }

    const op = `${res.method.toUpperCase()} ${route.template}`;
    const responses = operation.responses ?? {};
    const statusKey = [String(res.status), `${String(res.status)[0]}XX`, 'default'].find(
      (k) => responses[k] || responses[k.toLowerCase()],
    );
    if (!statusKey) {
      return [
        `${label}: status ${res.status} is not documented for ${op} (documented: ${Object.keys(responses).join(', ')})`,
      ];
    }
    const documented = responses[statusKey] ?? responses[statusKey.toLowerCase()];
    const content = documented.content ?? {};
    const mediaTypes = Object.keys(content);
    const empty = res.body === undefined || res.body === '';
    if (!mediaTypes.length) return empty ? [] : [`${label}: ${op} documents no body for ${statusKey}`];

    const actual = (res.contentType ?? '').split(';')[0].trim().toLowerCase();
    const mediaType = mediaTypes.find((m) => {
      const [type, sub] = m.toLowerCase().split('/');
      const [aType, aSub] = actual.split('/');
      return (type === '*' || type === aType) && (sub === '*' || sub === aSub);
    });
    if (!mediaType) {
      return [
        `${label}: content type ${actual || '(none)'} is not documented for ${op} ${statusKey} (documented: ${mediaTypes.join(', ')})`,
      ];
    }
    const schema = content[mediaType].schema;
    if (!schema || !isJson(actual)) return [];
    if (typeof res.body === 'string' || res.body === undefined) {
      return [`${label}: the body is not JSON although the content type is ${actual}`];
    }
    const validate = this.validator(`${op} ${statusKey} ${mediaType}`, schema);
    if (validate instanceof Error)
      return [`${label}: the document's schema does not compile: ${validate.message}`];
    if (validate(res.body)) return [];
    return (validate.errors ?? []).map(
      (e) =>
        `${label}: body${e.instancePath || ''} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''} (${op} ${statusKey}, schema ${e.schemaPath})`,
    );
  }

  /** Every JSON response schema of the document that cannot be compiled, with the reason. */
  schemaProblems(): string[] {
    const problems: string[] = [];
    for (const route of this.routes) {
      for (const [method, operation] of Object.entries(route.operations)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          for (const [mediaType, { schema }] of Object.entries(response.content ?? {})) {
            const op = `${method.toUpperCase()} ${route.template}`;
            const validate = schema && this.validator(`${op} ${status} ${mediaType}`, schema);
            if (validate instanceof Error) problems.push(`${op} ${status} ${mediaType}: ${validate.message}`);
          }
        }
      }
    }
    return problems;
  }

  private validator(key: string, schema: Schema): ValidateFunction | Error {
    let validate = this.validators.get(key);
    if (!validate) {
      try {
        validate = this.ajv.compile(anchorRefs(schema) as AnySchema);
      } catch (err) {
        validate = err as Error;
      }
      this.validators.set(key, validate);
    }
    return validate;
  }

  private isNoRouteAnswer(body: unknown): boolean {
    const envelope = body as { success?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
    const error = envelope?.error;
    return (
      envelope?.success === false &&
      error?.code === 'NOT_FOUND' &&
      typeof error.message === 'string' &&
      error.message.startsWith('No route ')
    );
  }

  /** The request's path; the console's mirror of the public API (/console/api/v2/...) is checked as /api/v2/.... */
  private pathOnly(path: string): string {
    const url = new URL(path, 'http://gateway.invalid');
    return url.pathname.replace(/^\/console\/api\/v2(?=\/|$)/i, '/api/v2');
  }
}

import type { OpenAPIObject } from '@nestjs/swagger';
import { requiredScope } from '../auth/route-scopes';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'] as const;

/**
 * Documents the scope each API-key operation needs, from the table the gateway enforces (route-scopes.ts):
 * an `x-required-scope` extension (null: full access only) and a line in the description.
 */
export function documentRequiredScopes(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation?.security?.some((s) => 'api_key' in s)) continue;
      const scope = requiredScope(method, path);
      (operation as unknown as Record<string, unknown>)['x-required-scope'] = scope;
      const line = scope
        ? `Required scope: \`${scope}\` (or a key without scopes).`
        : 'Required scope: a key with full access (no scopes).';
      operation.description = operation.description ? `${operation.description}\n\n${line}` : line;
    }
  }
  return document;
}

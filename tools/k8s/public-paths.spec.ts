import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';
import { buildBrowserStreamUrl, buildMediaStreamUrl } from '@vap/media';
import { readPublicPaths } from './validate-manifests';

/**
 * k8s/public-paths.json, which the manifest validator holds every Ingress to, against what the apps serve:
 * every top-level path the gateway routes and every stream URL voice hands out is listed, public or
 * internal, so a new one cannot be left unrouted (or routed) by accident.
 */
const ROOT = resolve(__dirname, '..', '..');
const paths = readPublicPaths(ROOT);
const listed = (service: string) => [
  ...paths.public.filter((p) => p.service === service).map((p) => p.path),
  ...paths.internal,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The top-level constants of the files (`export const NAME = ...`), by name: route paths are built of them. */
function constantsOf(files: string[]): Map<string, ts.Expression> {
  const out = new Map<string, ts.Expression>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer) out.set(d.name.text, d.initializer);
      }
    }
  }
  return out;
}

/** A string literal, a constant or a template of them, as its text; undefined for anything else. */
function textOf(e: ts.Expression, constants: Map<string, ts.Expression>): string | undefined {
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  if (ts.isIdentifier(e)) {
    const target = constants.get(e.text);
    return target ? textOf(target, constants) : undefined;
  }
  if (ts.isTemplateExpression(e)) {
    let out = e.head.text;
    for (const span of e.templateSpans) {
      const part = textOf(span.expression, constants);
      if (part === undefined) return undefined;
      out += part + span.literal.text;
    }
    return out;
  }
  return undefined;
}

/** The first path element of every route the gateway serves: its controllers', and what main.ts mounts. */
function gatewayTopLevelPaths(): string[] {
  const files = [
    ...sourceFiles(join(ROOT, 'apps', 'gateway', 'src')),
    ...sourceFiles(join(ROOT, 'libs', 'runtime', 'src')),
  ];
  const constants = constantsOf(files);
  const firstElement = (file: string, code: string): string => {
    const source = ts.createSourceFile('route.ts', `const route = ${code};`, ts.ScriptTarget.ES2022, true);
    const statement = source.statements[0] as ts.VariableStatement;
    const value = textOf(statement.declarationList.declarations[0].initializer!, constants);
    if (value === undefined) throw new Error(`${file}: cannot read the route ${code}`);
    return `/${value.replace(/^\//, '').split('/')[0]}`;
  };
  const found = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const [, arg] of text.matchAll(/@Controller\(([^)]+)\)/g)) found.add(firstElement(file, arg));
    for (const [, arg] of text.matchAll(/app\.use\(([A-Z_]+),/g)) found.add(firstElement(file, arg));
  }
  return [...found].sort();
}

describe('k8s/public-paths.json', () => {
  it('lists every top-level path the gateway serves, public or internal', () => {
    const served = gatewayTopLevelPaths();
    expect(served).toEqual(
      expect.arrayContaining(['/api', '/callbacks', '/console', '/sdk', '/admin', '/health']),
    );
    expect(served.filter((p) => !listed('gateway').includes(p))).toEqual([]);
  });

  it('lists the paths of the stream URLs voice hands carriers and browsers as public, to voice', () => {
    const publicUrl = 'https://api.example.com';
    const urls = [
      buildMediaStreamUrl({ publicUrl, carrier: 'carrier_b', callId: 'c1', token: 't' }),
      buildBrowserStreamUrl({ publicUrl, sessionId: 's1', token: 't' }),
    ];
    const voice = paths.public.filter((p) => p.service === 'voice').map((p) => p.path);
    for (const url of urls) {
      const first = `/${new URL(url).pathname.split('/')[1]}`;
      expect({ url, listed: voice.includes(first) }).toEqual({ url, listed: true });
    }
  });

  it('names each public path once, never an internal one', () => {
    const all = paths.public.map((p) => p.path);
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((p) => paths.internal.includes(p))).toEqual([]);
  });
});

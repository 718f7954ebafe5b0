import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import * as ts from 'typescript';
import type { LauncherSetting } from '@vap/testing';
import { NPM_START_DEFAULT_SETTINGS, NPM_START_OWNED_SETTINGS } from '../start/start-env';

/**
 * docs/configuration.md, generated from the config classes themselves so it cannot drift from what the apps
 * validate at boot. The classes are read as source (the TypeScript parser, no import), because tools may not
 * import apps: each app's `main.ts` names its config classes (`bootstrapService({ configClass, settings })`),
 * and each class's validated UPPER_CASE properties are its settings (as `configVariableNames` reads them at
 * run time). A setting's meaning is its JSDoc; its default is its initializer or development value, unless a
 * JSDoc `@default` tag words it.
 */

export interface SettingDoc {
  name: string;
  default: string;
  allowed: string;
  description: string;
}

export interface ConfigClassDoc {
  name: string;
  /** Repository-relative path of the file that declares the class. */
  file: string;
  /** The apps that validate this class, their config classes' base classes included. */
  apps: string[];
  settings: SettingDoc[];
}

interface ParsedClass {
  name: string;
  file: string;
  node: ts.ClassDeclaration;
  source: ts.SourceFile;
  base?: ParsedClass;
}

const SETTING_NAME = /^[A-Z][A-Z0-9_]*$/;
/** Path aliases of tsconfig.base.json, e.g. `@vap/runtime` -> libs/runtime/src/index.ts. */
type Aliases = Record<string, string>;

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
}

function aliasesOf(root: string): Aliases {
  const config = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile);
  const paths = (config.config?.compilerOptions?.paths ?? {}) as Record<string, string[]>;
  return Object.fromEntries(Object.entries(paths).map(([alias, [target]]) => [alias, join(root, target)]));
}

function resolveModule(specifier: string, fromFile: string, aliases: Aliases): string | undefined {
  if (aliases[specifier]) return aliases[specifier];
  if (!specifier.startsWith('.')) return undefined; // a package: never a config class of this repository
  const base = join(dirname(fromFile), specifier);
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** The declaration of class `name` as seen from `file`: declared there, imported, or re-exported. */
function findClass(
  name: string,
  file: string,
  root: string,
  aliases: Aliases,
  seen = new Set<string>(),
): ParsedClass | undefined {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const source = parse(file);
  for (const statement of source.statements) {
    if (ts.isClassDeclaration(statement) && statement.name?.text === name) {
      const parsed: ParsedClass = { name, file: relative(root, file), node: statement, source };
      const heritage = statement.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
      const baseName = heritage?.types[0]?.expression.getText(source);
      if (baseName) {
        parsed.base = findClass(baseName, file, root, aliases, seen);
        if (!parsed.base) throw new Error(`${parsed.file}: cannot find ${name}'s base class ${baseName}`);
      }
      return parsed;
    }
  }
  for (const statement of source.statements) {
    const isImport = ts.isImportDeclaration(statement);
    const isExport = ts.isExportDeclaration(statement);
    if ((!isImport && !isExport) || !statement.moduleSpecifier) continue;
    const target = resolveModule((statement.moduleSpecifier as ts.StringLiteral).text, file, aliases);
    if (!target) continue;
    let names: readonly ts.ImportSpecifier[] | readonly ts.ExportSpecifier[] | undefined;
    if (isImport) {
      const bindings = statement.importClause?.namedBindings;
      names = bindings && ts.isNamedImports(bindings) ? bindings.elements : undefined;
    } else {
      const clause = statement.exportClause;
      if (!clause) {
        // export * from '...'
        const found = findClass(name, target, root, aliases, seen);
        if (found) return found;
        continue;
      }
      names = ts.isNamedExports(clause) ? clause.elements : undefined;
    }
    const specifier = names?.find((s) => s.name.text === name);
    if (specifier)
      return findClass((specifier.propertyName ?? specifier.name).text, target, root, aliases, seen);
  }
  return undefined;
}

/** The config classes an app's main.ts hands to bootstrapService, as written there. */
function bootstrapClassNames(main: ts.SourceFile): string[] {
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'bootstrapService' &&
      node.arguments[0] &&
      ts.isObjectLiteralExpression(node.arguments[0])
    ) {
      for (const property of node.arguments[0].properties) {
        if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
        if (property.name.text === 'configClass' && ts.isIdentifier(property.initializer)) {
          names.unshift(property.initializer.text);
        } else if (property.name.text === 'settings' && ts.isArrayLiteralExpression(property.initializer)) {
          names.push(...property.initializer.elements.filter(ts.isIdentifier).map((e) => e.text));
        }
      }
    }
    // An app without the Nest bootstrap (the sandbox carrier) validates its class directly.
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'validateConfig' &&
      node.arguments[0] &&
      ts.isIdentifier(node.arguments[0])
    ) {
      names.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(main);
  return names;
}

interface DecoratorCall {
  name: string;
  args: readonly ts.Expression[];
}

function decoratorsOf(member: ts.ClassElement): DecoratorCall[] {
  return (ts.canHaveDecorators(member) ? (ts.getDecorators(member) ?? []) : []).flatMap(
    (d): DecoratorCall[] => {
      const call = d.expression;
      if (ts.isCallExpression(call) && ts.isIdentifier(call.expression)) {
        return [{ name: call.expression.text, args: call.arguments }];
      }
      return ts.isIdentifier(call) ? [{ name: call.text, args: [] }] : [];
    },
  );
}

/** A number written with literals and arithmetic (`10 * 1024 * 1024`, `60_000`); undefined otherwise. */
function numberOf(expression: ts.Expression): number | undefined {
  if (ts.isNumericLiteral(expression)) return Number(expression.text);
  if (ts.isParenthesizedExpression(expression)) return numberOf(expression.expression);
  if (ts.isPrefixUnaryExpression(expression) && expression.operator === ts.SyntaxKind.MinusToken) {
    const n = numberOf(expression.operand);
    return n === undefined ? undefined : -n;
  }
  if (ts.isBinaryExpression(expression)) {
    const [a, b] = [numberOf(expression.left), numberOf(expression.right)];
    if (a === undefined || b === undefined) return undefined;
    switch (expression.operatorToken.kind) {
      case ts.SyntaxKind.AsteriskToken:
        return a * b;
      case ts.SyntaxKind.PlusToken:
        return a + b;
      case ts.SyntaxKind.MinusToken:
        return a - b;
      case ts.SyntaxKind.SlashToken:
        return a / b;
    }
  }
  return undefined;
}

/** A literal value as the environment would spell it, in backticks; undefined for anything computed. */
function literalOf(expression: ts.Expression): string | undefined {
  const n = numberOf(expression);
  if (n !== undefined) return `\`${n}\``;
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
    return expression.text === '' ? '' : `\`${expression.text}\``;
  }
  if (expression.kind === ts.SyntaxKind.TrueKeyword) return '`true`';
  if (expression.kind === ts.SyntaxKind.FalseKeyword) return '`false`';
  return undefined;
}

function objectNumber(object: ts.Expression | undefined, key: string): number | undefined {
  if (!object || !ts.isObjectLiteralExpression(object)) return undefined;
  const property = object.properties.find(
    (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === key,
  );
  return property ? numberOf(property.initializer) : undefined;
}

function range(kind: string, min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${kind} ${min}..${max}`;
  if (min !== undefined) return `${kind} ≥ ${min}`;
  if (max !== undefined) return `${kind} ≤ ${max}`;
  return kind;
}

/** What the validators accept, where a decorator says it plainly (ranges, switches, lists). */
function allowedOf(decorators: DecoratorCall[]): string {
  const by = new Map(decorators.map((d) => [d.name, d.args]));
  const intSetting = by.get('IntSetting');
  if (intSetting)
    return range('integer', objectNumber(intSetting[0], 'min'), objectNumber(intSetting[0], 'max'));
  if (by.has('BoolSetting')) return '`true` or `false`';
  if (by.has('IsNumber')) {
    const min = by.get('Min')?.[0];
    const max = by.get('Max')?.[0];
    return range('number', min && numberOf(min), max && numberOf(max));
  }
  const isIn = by.get('IsIn')?.[0];
  if (isIn && ts.isArrayLiteralExpression(isIn)) {
    const values = isIn.elements.map((e) => literalOf(e)).filter((v): v is string => !!v);
    if (values.length === isIn.elements.length) return values.join(', ');
  }
  return '';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A property's JSDoc as written: its text, and a `@default` tag's. Read from the source rather than from the
 * parsed tags, so that an `@` inside the text (`@vap/messaging`) stays text.
 */
function jsDocOf(member: ts.ClassElement): { text: string; defaultTag?: string } {
  const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
  const doc = docs[docs.length - 1];
  if (!doc) return { text: '' };
  const lines = doc
    .getText()
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*?\s?/, ''));
  const tagAt = lines.findIndex((line) => /^@default\b/.test(line));
  if (tagAt < 0) return { text: oneLine(lines.join(' ')) };
  return {
    text: oneLine(lines.slice(0, tagAt).join(' ')),
    defaultTag: oneLine(
      lines
        .slice(tagAt)
        .join(' ')
        .replace(/^@default\b/, ''),
    ),
  };
}

function defaultOf(
  member: ts.PropertyDeclaration,
  decorators: DecoratorCall[],
  defaultTag: string | undefined,
): string | undefined {
  if (defaultTag) return defaultTag;
  const initial = member.initializer ? literalOf(member.initializer) : '';
  if (initial === undefined) return undefined; // computed: needs a @default tag
  const development = decorators.find((d) => d.name === 'DevelopmentValue')?.args[0];
  if (
    development &&
    development.kind !== ts.SyntaxKind.UndefinedKeyword &&
    development.getText() !== 'undefined'
  ) {
    const value = literalOf(development) ?? 'a fixed development secret,';
    return `${value} in development only${initial ? `; else ${initial}` : ''}`;
  }
  return initial || 'unset';
}

function settingsOf(parsed: ParsedClass, problems: string[]): SettingDoc[] {
  const settings: SettingDoc[] = [];
  for (const member of parsed.node.members) {
    if (!ts.isPropertyDeclaration(member) || !ts.isIdentifier(member.name)) continue;
    const name = member.name.text;
    const decorators = decoratorsOf(member);
    if (!SETTING_NAME.test(name) || decorators.length === 0) continue;
    const { text, defaultTag } = jsDocOf(member);
    const value = defaultOf(member, decorators, defaultTag);
    if (!text) problems.push(`${parsed.file}: ${parsed.name}.${name} has no JSDoc saying what it means`);
    if (value === undefined) {
      problems.push(
        `${parsed.file}: ${parsed.name}.${name}'s default is computed; word it in a @default tag`,
      );
    }
    settings.push({ name, default: value ?? '', allowed: allowedOf(decorators), description: text });
  }
  return settings;
}

/** The apps with a main.ts that bootstraps a service, in name order. */
function appNames(root: string): string[] {
  const apps = join(root, 'apps');
  return readdirSync(apps, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(apps, d.name, 'src', 'main.ts')))
    .map((d) => d.name)
    .sort();
}

/** Every config class any app validates, base classes first, each with the apps that validate it. */
export function readConfigClasses(root: string): ConfigClassDoc[] {
  const aliases = aliasesOf(root);
  const byName = new Map<string, { parsed: ParsedClass; apps: string[] }>();
  const order: string[] = [];
  const add = (parsed: ParsedClass, app: string): void => {
    if (parsed.base) add(parsed.base, app);
    const key = `${parsed.file}#${parsed.name}`;
    if (!byName.has(key)) {
      byName.set(key, { parsed, apps: [] });
      order.push(key);
    }
    const entry = byName.get(key)!;
    if (!entry.apps.includes(app)) entry.apps.push(app);
  };
  for (const app of appNames(root)) {
    const mainFile = join(root, 'apps', app, 'src', 'main.ts');
    const names = bootstrapClassNames(parse(mainFile));
    if (names.length === 0) continue; // not a platform service (no bootstrapService)
    for (const name of names) {
      const parsed = findClass(name, mainFile, root, aliases);
      if (!parsed) throw new Error(`apps/${app}/src/main.ts: cannot find config class ${name}`);
      add(parsed, app);
    }
  }
  const problems: string[] = [];
  // Classes every app validates first (the base settings), then in the order the apps name them.
  const all = appNames(root).filter((app) => order.some((k) => byName.get(k)!.apps.includes(app)));
  const sorted = [...order].sort(
    (a, b) =>
      Number(byName.get(b)!.apps.length === all.length) - Number(byName.get(a)!.apps.length === all.length),
  );
  const classes = sorted.map((key) => {
    const { parsed, apps } = byName.get(key)!;
    return { name: parsed.name, file: parsed.file, apps, settings: settingsOf(parsed, problems) };
  });
  if (problems.length) throw new Error(`config classes not documented:\n  ${problems.join('\n  ')}`);
  return classes;
}

/** The settings each app reads, by app: what its .env.example must list. */
export function settingsByApp(classes: ConfigClassDoc[]): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const cls of classes) {
    for (const app of cls.apps) {
      const names = out.get(app) ?? new Set<string>();
      cls.settings.forEach((s) => names.add(s.name));
      out.set(app, names);
    }
  }
  return new Map([...out].map(([app, names]) => [app, [...names].sort()]));
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

function launcherTable(settings: readonly LauncherSetting[]): string[] {
  return [
    '| Variable | Apps | Value |',
    '|---|---|---|',
    ...settings.map((s) => `| \`${s.name}\` | ${s.apps ? s.apps.join(', ') : 'all'} | ${cell(s.sets)} |`),
  ];
}

/** What `nx serve <app>` sets on the app: its project.json's serve target environment, per app. */
export function serveEnvOf(root: string): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const app of appNames(root)) {
    const file = join(root, 'apps', app, 'project.json');
    if (!existsSync(file)) continue;
    const project = JSON.parse(readFileSync(file, 'utf8')) as {
      targets?: { serve?: { options?: { env?: Record<string, string> } } };
    };
    const env = project.targets?.serve?.options?.env;
    if (env) out.set(app, env);
  }
  return out;
}

/** Who sets which settings: `npm start`, `nx serve`, compose and the Kubernetes manifests. */
function launchersMarkdown(root: string): string[] {
  const serve = [...serveEnvOf(root)];
  const serveSets = [
    ...new Set(serve.flatMap(([, env]) => Object.entries(env).map(([k, v]) => `\`${k}=${v}\``))),
  ];
  return [
    '## Who sets what',
    '',
    'Each way of running the platform hands the apps its environment unchanged, but for the settings below.',
    '',
    '**`npm start`** ([`tools/start/start-env.ts`](../tools/start/start-env.ts), on',
    '[`startPlatform`](../libs/testing/src/platform-env.ts)) sets these itself, from what it runs the apps on:',
    '',
    ...launcherTable(NPM_START_OWNED_SETTINGS),
    '',
    'It fills these in where its environment (or the root `.env`) leaves them unset:',
    '',
    ...launcherTable(NPM_START_DEFAULT_SETTINGS),
    '',
    'Every other setting on this page, set in its environment or the root `.env`, reaches the apps unchanged: for',
    'instance `STT_PROVIDER`, `TTS_PROVIDER` and `LLM_BASE_URL` choose the speech and language providers (unset, the',
    "voice app's development default is local speech, eSpeak NG and PocketSphinx). The e2e run and the benchmarks",
    'start the platform outside development and name offline speech themselves (`OFFLINE_SPEECH`).',
    '',
    `**\`nx serve <app>\`** sets ${serveSets.join(', ')} (the serve target of the app's \`project.json\`) and passes`,
    'everything else in its environment through.',
    '',
    '**Compose** ([`docker/compose.yml`](../docker/compose.yml)) sets what the deployment is made of: `NODE_ENV=production`,',
    '`HOST`, `PORT`, the addresses of its own Postgres, NATS, blob volume and sandbox carrier, `MIGRATIONS_RUN=false`,',
    "`SHUTDOWN_TIMEOUT_MS` and voice's `DRAIN_DEADLINE_MS` (its stop grace periods cover them), each app's NATS password;",
    'it reads the secrets, the public URLs, `LOG_LEVEL`, `STT_PROVIDER` and `TTS_PROVIDER` (default offline) from the shell',
    'or `docker/.env`. Every other setting goes in `docker/apps.env` (optional; settings, not secrets, which every app',
    'would see), which every app reads.',
    '',
    "**Kubernetes** ([`k8s/README.md`](../k8s/README.md#what-the-base-defines)): each Deployment sets its `PORT` (its probes' and",
    "Service's port), voice its `DRAIN_DEADLINE_MS` (its grace period covers it) and the sandbox carrier the in-cluster",
    'gateway and voice addresses; every other setting comes from the `vap-config` ConfigMap and the `vap-secrets`',
    'Secret, which an overlay changes (`behavior: merge`) without touching the base.',
    '',
  ];
}

export function configurationMarkdown(classes: ConfigClassDoc[], root: string): string {
  const lines = [
    '# Configuration',
    '',
    "<!-- Generated by `npm run docs:config` from the apps' config classes: edit the classes, not this file. -->",
    '',
    'Every setting each app reads from its environment, generated from the config classes the app validates at',
    "boot (a setting's meaning is its JSDoc there). How settings are read and checked, and what",
    '`NODE_ENV=development` changes, is in [Operations](operations.md#configuring); which of them `npm start`,',
    '`nx serve`, compose and Kubernetes set themselves, in [Who sets what](#who-sets-what).',
    '',
  ];
  for (const cls of classes) {
    lines.push(`## ${cls.name}`, '');
    lines.push(
      `Read by ${cls.apps.map((a) => `**${a}**`).join(', ')}; declared in [\`${cls.file}\`](../${cls.file}).`,
    );
    lines.push('', '| Variable | Default | Allowed | Meaning |', '|---|---|---|---|');
    for (const s of cls.settings) {
      lines.push(`| \`${s.name}\` | ${cell(s.default)} | ${cell(s.allowed)} | ${cell(s.description)} |`);
    }
    lines.push('');
  }
  lines.push(...launchersMarkdown(root));
  return lines.join('\n');
}

export const CONFIGURATION_DOC = join('docs', 'configuration.md');

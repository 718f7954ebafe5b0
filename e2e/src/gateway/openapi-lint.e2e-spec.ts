import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { workspaceRoot } from '@vap/testing';
import { api } from '../../support';

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

/** The served document passes Redocly's recommended rules (settings in redocly.yaml), warnings included. */
describe('OpenAPI document lint', () => {
  it('has no Redocly lint errors or warnings', async () => {
    const res = await api('/api/v2/openapi.json');
    expect(res.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'vap-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(res.body, null, 2));
      const root = workspaceRoot();
      // Redocly exits non-zero when it finds errors; the JSON report on stdout is what counts.
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'),
          'lint',
          file,
          '--config',
          join(root, 'redocly.yaml'),
          '--format',
          'json',
        ],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          maxBuffer: 64 * 1024 * 1024,
        },
      ).catch((err: { stdout?: string; message: string }) => {
        if (err.stdout) return { stdout: err.stdout };
        throw err;
      });
      const report = JSON.parse(stdout) as LintReport;
      const problems = report.problems.map(
        (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`,
      );
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

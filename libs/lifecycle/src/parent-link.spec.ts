import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ModuleKind, ScriptTarget, transpileModule } from 'typescript';
import { PARENT_LINK_CHILD_ENV, PARENT_LINK_ENV, whenParentGone } from './parent-link';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Resolves with the first line of the child's stdout. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`exited (${code}) before saying anything: ${text}`)));
  });
}

describe('whenParentGone', () => {
  it('watches nothing when the process was not started linked to its parent', () => {
    const input = new PassThrough();
    const onGone = jest.fn();
    expect(whenParentGone(onGone, {}, input)).toBe(false);
    input.end();
    expect(input.listenerCount('end')).toBe(0);
    expect(onGone).not.toHaveBeenCalled();
  });

  it('calls back once when the pipe from the parent ends, and does not pass the link on', async () => {
    const input = new PassThrough();
    const env: NodeJS.ProcessEnv = { ...PARENT_LINK_CHILD_ENV };
    const onGone = jest.fn();
    expect(whenParentGone(onGone, env, input)).toBe(true);
    expect(env[PARENT_LINK_ENV]).toBeUndefined();
    input.write('noise');
    await new Promise((resolve) => setImmediate(resolve));
    expect(onGone).not.toHaveBeenCalled();
    input.end();
    await waitUntil(() => onGone.mock.calls.length > 0, 1000);
    input.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(onGone).toHaveBeenCalledTimes(1);
  });

  it('calls back when the process is handed to another parent, the pipe still open', async () => {
    const input = new PassThrough();
    let parent = 4242;
    const onGone = jest.fn();
    whenParentGone(onGone, { ...PARENT_LINK_CHILD_ENV }, input, () => parent);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(onGone).not.toHaveBeenCalled();
    parent = 1;
    expect(await waitUntil(() => onGone.mock.calls.length > 0, 2000)).toBe(true);
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(onGone).toHaveBeenCalledTimes(1);
  });

  describe('between real processes', () => {
    let dir: string;
    const spawned: ChildProcess[] = [];
    let orphans: number[] = [];

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'parent-link-'));
      // The module as plain CommonJS, so that a bare `node` runs it the way a built app does.
      const source = readFileSync(join(__dirname, 'parent-link.ts'), 'utf8');
      const { outputText } = transpileModule(source, {
        compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 },
      });
      writeFileSync(join(dir, 'parent-link.js'), outputText);
      // An app: says its pid, then runs until the link says its parent is gone (or, unlinked, on its own).
      writeFileSync(
        join(dir, 'app.js'),
        `const { whenParentGone } = require('./parent-link.js');
         const linked = whenParentGone(() => { process.stdout.write('parent gone\\n'); process.exit(0); });
         process.stdout.write(process.pid + ' ' + linked + '\\n');
         if (process.argv[2] !== 'idle') setInterval(() => undefined, 1000);`,
      );
      // A launcher: starts the app linked to it (as the test harness does), says the app's pid, and waits.
      writeFileSync(
        join(dir, 'launcher.js'),
        `const { spawn } = require('node:child_process');
         const { PARENT_LINK_CHILD_ENV } = require('./parent-link.js');
         const app = spawn(process.execPath, [require('node:path').join(__dirname, 'app.js')], {
           env: { ...process.env, ...PARENT_LINK_CHILD_ENV },
           stdio: ['pipe', 'pipe', 'inherit'],
           detached: true,
         });
         app.stdout.once('data', (chunk) => process.stdout.write(chunk));
         setInterval(() => undefined, 1000);`,
      );
    });

    afterEach(() => {
      for (const pid of orphans) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone, as it should be.
        }
      }
      orphans = [];
      for (const child of spawned.splice(0)) child.kill('SIGKILL');
    });

    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('ends the app within seconds of a SIGKILL of the process that started it', async () => {
      const launcher = spawn(process.execPath, [join(dir, 'launcher.js')], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      spawned.push(launcher);
      const [pidText, linked] = (await firstLine(launcher)).split(' ');
      const appPid = Number(pidText);
      orphans.push(appPid);
      expect(linked).toBe('true');
      expect(isAlive(appPid)).toBe(true);

      launcher.kill('SIGKILL');
      expect(await waitUntil(() => !isAlive(appPid), 5000)).toBe(true);
    });

    it('does not keep an app alive that has nothing else to do', async () => {
      const app = spawn(process.execPath, [join(dir, 'app.js'), 'idle'], {
        env: { ...process.env, ...PARENT_LINK_CHILD_ENV },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      spawned.push(app);
      const exited = new Promise<number | null>((resolve) => app.once('exit', resolve));
      expect(await firstLine(app)).toMatch(/ true$/);
      // stdin is still open here: the app ends only because nothing else holds it.
      let timer: NodeJS.Timeout | undefined;
      const running = new Promise((resolve) => (timer = setTimeout(() => resolve('running'), 5000)));
      expect(await Promise.race([exited, running])).toBe(0);
      clearTimeout(timer);
    });
  });
});

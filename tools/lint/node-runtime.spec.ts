import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One Node.js major for the whole project: the images are built and run on it, CI tests on it, and
 * package.json's engines starts at it. A change to one of them without the others ships a runtime that no
 * test ran on, so they are read from the files themselves and compared here.
 */
const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** Node.js lines still supported on the day of writing (even majors from 24; 20 and 22 are past or near end of life). */
const SUPPORTED_FROM = 24;

describe('Node.js runtime', () => {
  const imageMajors = [...read('docker/Dockerfile').matchAll(/^FROM node:(\d+)-/gm)].map((m) => Number(m[1]));
  const ciMajor = Number(/^NODE_MAJOR=(\d+)$/m.exec(read('.ci/run'))?.[1]);
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  const enginesMajor = Number(/^>=(\d+)$/.exec(engines)?.[1]);

  it('builds and runs every image stage on one supported LTS major', () => {
    expect(imageMajors.length).toBeGreaterThanOrEqual(2);
    expect(new Set(imageMajors).size).toBe(1);
    expect(imageMajors[0]).toBeGreaterThanOrEqual(SUPPORTED_FROM);
    expect(imageMajors[0] % 2).toBe(0);
  });

  it('tests in CI on the images’ major, and engines starts there', () => {
    expect(ciMajor).toBe(imageMajors[0]);
    expect(enginesMajor).toBe(imageMajors[0]);
  });
});

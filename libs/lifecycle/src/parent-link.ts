import type { Readable } from 'node:stream';

/**
 * Links an app to the process that started it (`npm start`, the test harness): the launcher starts it with this
 * variable set and its stdin a pipe whose other end only the launcher holds. The kernel closes that end when the
 * launcher ends however it ends (Ctrl-C, a closed terminal, SIGKILL), so the app sees end-of-file and stops,
 * instead of living on attached to NATS and Postgres and taking a share of the next start's work. Without the
 * variable (`nx serve`, a container) nothing is watched.
 *
 * Free of other imports: its spec runs it as it is in bare node processes.
 */
export const PARENT_LINK_ENV = 'VAP_PARENT_LINK';
const STDIN_LINK = 'stdin';
const PARENT_POLL_MS = 500;

/** The environment entry a launcher gives a linked child (whose stdin it must spawn as 'pipe' and keep open). */
export const PARENT_LINK_CHILD_ENV: Readonly<Record<string, string>> = { [PARENT_LINK_ENV]: STDIN_LINK };

/**
 * When this process was started linked to its parent (PARENT_LINK_ENV), calls onGone once the parent is gone and
 * returns true; otherwise does nothing and returns false. The watch never keeps the process alive by itself.
 */
export function whenParentGone(
  onGone: () => void,
  env: NodeJS.ProcessEnv = process.env,
  input: Readable = process.stdin,
  parentPid: () => number = () => process.ppid,
): boolean {
  if (env[PARENT_LINK_ENV] !== STDIN_LINK) return false;
  // A process this one starts is not linked to it unless it says so itself.
  delete env[PARENT_LINK_ENV];
  let fired = false;
  const fire = () => {
    if (fired) return;
    fired = true;
    clearInterval(poll);
    onGone();
  };
  // Being handed to another parent (init, a subreaper) tells the same: a second sign, for a pipe whose other end a
  // process outliving the parent still holds.
  const parent = parentPid();
  const poll = setInterval(() => parentPid() !== parent && fire(), PARENT_POLL_MS);
  poll.unref();
  input.once('end', fire);
  input.once('close', fire);
  input.once('error', fire);
  // Whatever the parent writes carries no meaning; reading it keeps the pipe from filling (and lets 'end' come).
  input.on('data', () => undefined);
  (input as Readable & { unref?: () => void }).unref?.();
  return true;
}

/** What a suite starts and stops: an IntegrationApp, or a spec's own harness around one. */
export interface Stoppable {
  stop(): Promise<unknown>;
}

export interface UseIntegrationAppOptions {
  /**
   * Runs after the suite's tests, before the app stops, with the app still readable: closing what the spec
   * connected to the app and must go first, e.g. a NATS connection of its own under the app's prefix, whose
   * streams the app's stop deletes. Also runs when the app failed to start; the app stops even if it throws.
   */
  beforeStop?: () => unknown;
  /** Runs once the app has stopped (or failed to start): closing what the spec set up beside it, a fake carrier. */
  afterStop?: () => unknown;
  /** The beforeAll's timeout in ms, for an app slower to start than Jest's default allows. */
  timeout?: number;
}

/**
 * Starts the suite's app in a beforeAll and stops it in an afterAll, and returns it for the tests to use. The
 * value returned stands for the app before it exists: its properties are read when a hook or test runs, so
 * `calls.send(...)` inside a test reaches the started app; reading one before the beforeAll ran throws.
 */
export function useIntegrationApp<A extends Stoppable>(
  start: () => Promise<A>,
  options: UseIntegrationAppOptions = {},
): A {
  let app: A | undefined;
  beforeAll(async () => {
    app = await start();
  }, options.timeout);
  afterAll(async () => {
    try {
      await options.beforeStop?.();
    } finally {
      try {
        await app?.stop();
      } finally {
        app = undefined;
        await options.afterStop?.();
      }
    }
  });
  const started = (): A => {
    if (!app)
      throw new Error('the integration app is read before its beforeAll started it, or after it stopped');
    return app;
  };
  return new Proxy({} as A, {
    get(_, property) {
      const target = started();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    has: (_, property) => Reflect.has(started(), property),
  });
}

// Three suites: unit specs and integration specs (*.integration-spec.ts: one app in process) beside the code,
// with real Postgres and NATS where they need them, and e2e specs that start the built platform and drive it
// through the gateway's HTTP API.
const preset = require('./jest.preset');

module.exports = {
  // e2e specs start extra apps and wait on real infrastructure.
  testTimeout: 60000,
  // Longest spec files first, from recorded durations (a fresh clone has no Jest cache to order by).
  testSequencer: '<rootDir>/tools/jest/duration-sequencer.js',
  projects: [
    {
      ...preset,
      displayName: 'unit',
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools', '<rootDir>/bench'],
      testMatch: ['**/*.spec.ts'],
      // The console's specs load its modules, whose imports name the emitted `.js`.
      resolver: '<rootDir>/tools/jest/resolver.js',
    },
    {
      // One app's own module in the test process on a throwaway database and NATS prefix, its peers faked
      // (IntegrationApp in @vap/testing/integration).
      ...preset,
      displayName: 'integration',
      roots: ['<rootDir>/apps', '<rootDir>/libs'],
      testMatch: ['**/*.integration-spec.ts'],
      resolver: '<rootDir>/tools/jest/resolver.js',
    },
    {
      ...preset,
      displayName: 'e2e',
      roots: ['<rootDir>/e2e'],
      testMatch: ['**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/e2e/setup/global-setup.ts',
      globalTeardown: '<rootDir>/e2e/setup/global-teardown.ts',
      // Every answer a spec gets from the gateway is checked against the served OpenAPI document.
      setupFilesAfterEnv: ['<rootDir>/e2e/setup/response-conformance.ts'],
    },
  ],
};

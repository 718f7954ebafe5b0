// Shared Jest settings: SWC compiles TypeScript with decorator metadata (type checking is the build's job).
const path = require('node:path');
const { pathsToModuleNameMapper } = require('./tools/jest/paths');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: pathsToModuleNameMapper(path.join(__dirname, 'tsconfig.base.json')),
  // Reads each module's source once per worker, not once per spec file (tools/jest/runtime.js).
  runtime: path.join(__dirname, 'tools/jest/runtime.js'),
};

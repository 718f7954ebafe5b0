import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { noCycleWithTypeImports } from './tools/lint/no-cycle-with-type-imports.mjs';

// Library layers, lowest first: a lib imports libs of its own layer or below, never above. messages (the
// internal message contracts, plain types) is the lowest; api (the public HTTP schema) builds on it, so the
// internal contracts never import a decorated DTO. secrets, egress, lifecycle, media, sdk and web-client (the
// browser client, built into one dependency-free module) import no other lib; llm and speech read the messages;
// the carrier simulator reads media; storage builds on runtime. docs/architecture.md and CONTRIBUTING.md name
// this order (tools/docs/library-docs.spec.ts holds them to it).
const LAYERS = ['layer:messages', 'layer:api', 'layer:persistence', 'layer:messaging', 'layer:runtime'];

// Spec files and a lib's or app's own test kit (a testing/ folder, never exported from a lib's barrel nor built
// into an app) may also use @vap/testing.
const TEST_CODE = [
  '**/*.spec.ts',
  '**/*.e2e-spec.ts',
  '**/*.integration-spec.ts',
  'libs/*/src/testing/**/*.ts',
  'apps/*/src/**/testing/**/*.ts',
];

/**
 * Apps talk to each other over NATS only, so an app imports libs, never another app. Test helpers
 * (type:testing) reach only tools, e2e, benchmarks and test code, never production code of an app or lib.
 */
function moduleBoundaries({ testCode }) {
  const testing = testCode ? ['type:testing'] : [];
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      depConstraints: [
        // The carrier simulator (type:simulator) reaches only the simulator app, the e2e fakes and an app's test
        // code (the voice integration specs' carrier), never a platform app's own code: the platform meets it
        // from the outside, as any carrier.
        {
          sourceTag: 'type:app',
          onlyDependOnLibsWithTags: ['type:lib', ...testing, ...(testCode ? ['type:simulator'] : [])],
        },
        {
          sourceTag: 'type:simulator-app',
          onlyDependOnLibsWithTags: ['type:lib', 'type:simulator', ...testing],
        },
        // The console is compiled for the browser without a bundler (its imports load as they are written), so it
        // imports no lib: what it needs of the platform it reads from the API.
        { sourceTag: 'type:console', onlyDependOnLibsWithTags: [] },
        { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', ...testing] },
        { sourceTag: 'type:simulator', onlyDependOnLibsWithTags: ['type:lib', ...testing] },
        { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
        { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
        { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:simulator', 'type:testing'] },
        ...LAYERS.map((layer, i) => ({
          sourceTag: layer,
          onlyDependOnLibsWithTags: [...LAYERS.slice(0, i + 1), ...testing],
        })),
      ],
    },
  ];
}

export default tseslint.config(
  {
    // The SDK's generated client is hey-api's output, regenerated and never edited (generated-code.spec.ts).
    ignores: [
      '**/dist',
      '**/node_modules',
      '**/.data',
      '**/.nx',
      'bench/**/*.js',
      'libs/sdk/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    // .tsx: the console's Preact components.
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries({ testCode: false }),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // No import cycle inside an app or a lib, type-only imports included: a loop of modules can be neither read nor
    // changed one side at a time. A lib reached through its alias counts as external here: a loop between two
    // projects is the boundaries rule's to refuse (circular dependency), and not walking into the libs from every
    // file keeps the lint quick.
    files: ['apps/*/src/**/*.ts', 'apps/*/src/**/*.tsx', 'libs/*/src/**/*.ts'],
    plugins: { vap: { rules: { 'no-cycle': noCycleWithTypeImports } } },
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/external-module-folders': ['node_modules', 'libs'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.base.json' })],
    },
    rules: { 'vap/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: TEST_CODE,
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries({ testCode: true }) },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'libs/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

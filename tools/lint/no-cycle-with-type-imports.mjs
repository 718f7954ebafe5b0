// import-x/no-cycle with type-only imports counted as edges. The rule skips `import type` (and `export type ... from`)
// because such an import is erased before the code runs, but a loop of type imports still ties modules together: a
// unit cannot be read, moved or split without the other side. So this wraps the rule: the importing statement is
// handed to it as a value import, and the modules it walks to are parsed with their type-only imports read as
// value ones (a parse of import-x's own, never the one other rules see).
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const noCycle = importX.rules['no-cycle'];

/** The import and export statements of a module, type-only marks cleared. */
function clearTypeOnlyMarks(program) {
  for (const statement of program.body) {
    if ('importKind' in statement) statement.importKind = 'value';
    if ('exportKind' in statement) statement.exportKind = 'value';
    for (const specifier of statement.specifiers ?? []) {
      if ('importKind' in specifier) specifier.importKind = 'value';
      if ('exportKind' in specifier) specifier.exportKind = 'value';
    }
  }
  return program;
}

/** The TypeScript parser, as import-x parses the modules it walks to. */
const parserReadingTypeImports = {
  // import-x keys its cache of parsed modules on the parser's meta: its own entry, apart from the real parser's.
  meta: { name: 'typescript-eslint-parser-reading-type-imports' },
  parseForESLint(code, options) {
    const result = tseslint.parser.parseForESLint(code, options);
    clearTypeOnlyMarks(result.ast);
    return result;
  },
};

/** The importing statement as no-cycle sees it: a type-only import is a value one. */
function asValueImport(node) {
  if (node?.type !== 'ImportDeclaration' && node?.type !== 'TSImportEqualsDeclaration') return node;
  return {
    ...node,
    importKind: 'value',
    specifiers: node.specifiers?.map((specifier) => ({ ...specifier, importKind: 'value' })),
  };
}

export const noCycleWithTypeImports = {
  meta: noCycle.meta,
  defaultOptions: noCycle.defaultOptions,
  create(context) {
    const view = Object.create(context, {
      languageOptions: { value: { ...context.languageOptions, parser: parserReadingTypeImports } },
    });
    const listeners = noCycle.create(view);
    return Object.fromEntries(
      Object.entries(listeners).map(([selector, listener]) => [
        selector,
        (node) => listener(asValueImport(node)),
      ]),
    );
  },
};

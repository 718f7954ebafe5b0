#!/usr/bin/env node
// Builds the partner console into dist/apps/console: the TypeScript compiler checks and emits the sources as
// ES modules (app/), Preact's own ES modules are copied beside them (vendor/), and every bare `preact` import
// is rewritten to a relative path, so the browser loads the app with no bundler, no import map (a strict CSP
// allows only 'self' scripts) and nothing from a CDN.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const root = path.resolve(__dirname, '..');
const workspace = path.resolve(root, '../..');
const outDir = path.join(workspace, 'dist/apps/console');

function fail(message) {
  console.error(`console build: ${message}`);
  process.exit(1);
}

fs.rmSync(outDir, { recursive: true, force: true });
const configPath = path.join(root, 'tsconfig.app.json');
const config = ts.readConfigFile(configPath, ts.sys.readFile);
if (config.error) fail(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
const program = ts.createProgram(parsed.fileNames, parsed.options);
const result = program.emit();
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
if (diagnostics.length) {
  fail(
    '\n' +
      ts.formatDiagnosticsWithColorAndContext(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => process.cwd(),
        getNewLine: () => '\n',
      }),
  );
}

// Preact's ES module builds: the module each bare specifier names.
const preactDir = path.dirname(require.resolve('preact/package.json'));
const VENDOR = {
  preact: 'dist/preact.module.js',
  'preact/hooks': 'hooks/dist/hooks.module.js',
  'preact/jsx-runtime': 'jsx-runtime/dist/jsxRuntime.module.js',
};
const vendorDir = path.join(outDir, 'vendor');
fs.mkdirSync(vendorDir, { recursive: true });
const vendorFile = (spec) => path.join(vendorDir, `${spec.replace('/', '-')}.js`);
for (const [spec, file] of Object.entries(VENDOR))
  fs.copyFileSync(path.join(preactDir, file), vendorFile(spec));

/** Rewrites `from "preact..."` (and bare side-effect imports) in one emitted file to relative paths. */
function rewrite(file) {
  const text = fs.readFileSync(file, 'utf8');
  const out = text.replace(/(\bfrom\s*|\bimport\s*)(["'])(preact(?:\/[a-z-]+)?)\2/g, (match, kw, q, spec) => {
    if (!VENDOR[spec]) fail(`${path.relative(outDir, file)} imports ${spec}, which is not vendored`);
    let rel = path.relative(path.dirname(file), vendorFile(spec)).split(path.sep).join('/');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return `${kw}${q}${rel}${q}`;
  });
  if (/^\s*(import|export)\b[^;]*?\bfrom\s*["'][^./"']/m.test(out) || /^\s*import\s*["'][^./"']/m.test(out))
    fail(`${path.relative(outDir, file)} still has a bare import`);
  fs.writeFileSync(file, out);
}
const walk = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : p.endsWith('.js') ? [p] : [];
  });
for (const file of walk(outDir)) rewrite(file);

for (const asset of ['index.html', 'styles.css'])
  fs.copyFileSync(path.join(root, 'src', asset), path.join(outDir, asset));
console.log(`console build: ${walk(outDir).length} modules in ${path.relative(workspace, outDir)}`);

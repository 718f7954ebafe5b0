#!/usr/bin/env node
// Builds the browser client into one dependency-free ES module (dist/libs/web-client/voice-client.js) and
// its declarations (voice-client.d.ts): the TypeScript compiler checks and emits every source file (ES2020,
// tsconfig.lib.json), then the files are joined in dependency order with their internal imports and
// export keywords removed; only voice-client.ts keeps its exports. The one-tag widget (widget.js) is the same
// sources and browser/widget.ts, every export removed, in one classic script (a function scope of its own, so
// that it reads document.currentScript and leaves no globals). No bundler needed: the sources import
// nothing but each other, with names unique across the files (the build fails otherwise).
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const root = path.resolve(__dirname, '..');
const outDir = path.resolve(root, '../../dist/libs/web-client');
const ORDER = ['dsp', 'protocol', 'types', 'browser/worklet', 'browser/voice-client'];
const ENTRY = 'browser/voice-client';
const WIDGET = 'browser/widget';

function fail(message) {
  console.error(`web-client build: ${message}`);
  process.exit(1);
}

const configPath = path.join(root, 'tsconfig.lib.json');
const config = ts.readConfigFile(configPath, ts.sys.readFile);
if (config.error) fail(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
const program = ts.createProgram(
  [...ORDER, WIDGET].map((f) => path.join(root, 'src', `${f}.ts`)),
  parsed.options,
);
const emitted = new Map();
const result = program.emit(undefined, (file, text) => emitted.set(path.resolve(file), text));
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

function output(name, ext) {
  const file = path.resolve(parsed.options.outDir, `${name}${ext}`);
  const text = emitted.get(file);
  if (text === undefined) fail(`no output for ${name}${ext}`);
  return text;
}

/** Drops a file's imports of the other sources (and `export {}`), and its export keywords unless kept. */
function unmodule(text, name, keepExports) {
  const lines = text.split('\n').filter((line) => !/^export \{\};?$/.test(line.trim()));
  const out = [];
  for (const line of lines) {
    if (/^import\s/.test(line)) {
      if (!/from '\.{1,2}\/[^']+';$/.test(line))
        fail(`${name} imports something other than a source: ${line}`);
      continue;
    }
    out.push(keepExports ? line : line.replace(/^export (declare )?/, '$1'));
  }
  return out.join('\n').trim();
}

const header = `// Voice Agent Platform browser client (see docs/web-client.md). Generated: do not edit.\n`;
const js =
  header +
  ORDER.map((name) => `// ---- ${name}\n${unmodule(output(name, '.js'), name, name === ENTRY)}`).join(
    '\n\n',
  ) +
  '\n';
const widget =
  header.replace('browser client', 'one-tag web widget') +
  '(function () {\n"use strict";\n' +
  [...ORDER, WIDGET]
    .map((name) => `// ---- ${name}\n${unmodule(output(name, '.js'), name, false)}`)
    .join('\n\n') +
  '\n})();\n';
const dts =
  header + ['types', ENTRY].map((name) => unmodule(output(name, '.d.ts'), name, true)).join('\n\n') + '\n';

for (const [label, text] of [
  ['voice-client.js', js],
  ['voice-client.d.ts', dts],
  ['widget.js', widget],
]) {
  if (/^\s*import[\s{(]/m.test(text) || /\brequire\(/.test(text)) fail(`${label} still imports something`);
}
// Every top-level name once: the joined files share one scope.
const names = new Map();
for (const match of js.matchAll(
  /^(?:export )?(?:async )?(?:class|function|const|let|var)\s+([A-Za-z_$][\w$]*)/gm,
)) {
  if (names.has(match[1])) fail(`${match[1]} is declared twice across the sources`);
  names.set(match[1], true);
}
// Only VoiceClient's file keeps exports; d.ts names it uses from elsewhere must be in types.
const missing = [...dts.matchAll(/\b(VoiceClient(?:Options|Events)|VoiceTranscriptLine)\b/g)].filter(
  (m) => !new RegExp(`(interface|type) ${m[1]}\\b`).test(dts),
);
if (missing.length) fail(`voice-client.d.ts lacks ${missing[0][1]}`);

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'voice-client.js'), js);
fs.writeFileSync(path.join(outDir, 'voice-client.d.ts'), dts);
fs.writeFileSync(path.join(outDir, 'widget.js'), widget);
console.log(
  `web-client: ${path.relative(process.cwd(), outDir)}/voice-client.js (${js.length} bytes), .d.ts and widget.js (${widget.length} bytes)`,
);

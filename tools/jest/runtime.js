// Jest's module runtime, reading and transforming a module once per worker rather than once per spec file. Jest
// builds a fresh module registry for every spec file, and for every module it loads it reads the source from disk
// again and stats it to find its transform in memory; on a small machine that was a third of the time a spec file
// spent loading its modules. Sources do not change during a run. In watch mode they do, and a run in band keeps
// its process between runs, so there (and when collecting coverage, which instruments per file) it does as Jest
// does.
const Runtime = require('jest-runtime').default;

/** path -> the module's source, as bytes and as text once asked for. */
const sources = new Map();
/** path and transform options -> what the transformer made of it. */
const transforms = new Map();

class SourceCachingRuntime extends Runtime {
  constructor(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig) {
    super(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig);
    this.shareSources = !(globalConfig?.watch || globalConfig?.watchAll || coverageOptions?.collectCoverage);
    if (this.shareSources) {
      const transform = transformer.transform.bind(transformer);
      transformer.transform = (filename, options, source) => {
        const key = `${filename}\0${options.supportsStaticESM}${options.supportsDynamicImport}${options.supportsTopLevelAwait}${options.supportsExportNamespaceFrom}`;
        let result = transforms.get(key);
        if (!result) {
          result = transform(filename, options, source);
          transforms.set(key, result);
        }
        return result;
      };
    }
  }

  readFileBuffer(filename) {
    if (!this.shareSources) return super.readFileBuffer(filename);
    let entry = sources.get(filename);
    if (!entry) {
      entry = { buffer: super.readFileBuffer(filename), text: undefined };
      sources.set(filename, entry);
    }
    this._cacheFSBuffer.set(filename, entry.buffer);
    return entry.buffer;
  }

  readFile(filename) {
    if (!this.shareSources) return super.readFile(filename);
    let text = this._cacheFS.get(filename);
    if (!text) {
      this.readFileBuffer(filename);
      const entry = sources.get(filename);
      text = entry.text ??= entry.buffer.toString('utf8');
      this._cacheFS.set(filename, text);
    }
    return text;
  }
}

module.exports = SourceCachingRuntime;

// Resolves a relative `./x.js` that names a TypeScript source `./x.ts`, as the console's browser ES modules write
// their imports (the TypeScript compiler reads them the same way); every other request resolves as Jest's own.
module.exports = (request, options) => {
  try {
    return options.defaultResolver(request, options);
  } catch (error) {
    if (!/^\.{1,2}\/.*\.js$/.test(request)) throw error;
    try {
      return options.defaultResolver(request.replace(/\.js$/, '.ts'), options);
    } catch {
      throw error;
    }
  }
};

/**
 * How gw bundles a file of its own for Node (scripts/bundle.js's dependencies apart, and --jq's
 * worker, scripts/jq-worker.js): one CommonJS file, for the oldest Node gw runs on (package.json
 * engines), its whitespace and syntax minified but its names kept (they are in stack traces).
 */
export const CJS_FOR_NODE = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
}

#!/usr/bin/env node
/**
 * npm run build: the one bundle (dist/synctop.js and its lazily loaded chunks).
 *
 * Four substitutions: jsonc-parser's ESM build for its UMD entry; `string-width`, as imported by our code, Ink, widest-line and
 * cli-truncate, is src/view/display-width.ts (the same function with a memo across frames; see
 * there why); Ink's Output, as imported by Ink's renderer, is src/ui/terminal/ink-output.ts
 * (the same frames, with rows remembered across frames; see there why); and Ink's sanitizeAnsi,
 * as imported by its squash-text-nodes, is remembered (src/ui/terminal/ink-sanitize-ansi.ts).
 * Every other module of Ink is bundled unmodified. wrap-ansi keeps its own string-width 7.
 *
 *   node scripts/build.mjs [--outdir DIR] [--no-minify]   (unminified: for CPU profiles)
 */
import { build } from 'esbuild';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const displayWidth = fileURLToPath(new URL('../src/view/display-width.ts', import.meta.url));
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt > 0 ? process.argv[outdirAt + 1] : 'dist';

/** Every `string-width` import that would resolve to the top-level package goes to the memo. */
const memoizedStringWidth = {
  name: 'memoized-string-width',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.importer === displayWidth || args.pluginData === 'real') return undefined;
      const real = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'real' });
      const topLevel = await b.resolve(args.path, { kind: args.kind, resolveDir: root, pluginData: 'real' });
      // A nested copy of another major (wrap-ansi's) stays as it is.
      return real.path === topLevel.path ? { path: displayWidth } : undefined;
    });
  },
};

/**
 * Ink modules replaced for one importer each: Ink's renderer gets the row-remembering Output,
 * its squash-text-nodes the remembered sanitizeAnsi. `ink/build/...` (which Ink's package exports
 * do not expose) names Ink's own file, for the wrappers.
 */
const inkSubstitutes = [
  { importer: 'renderer.js', specifier: './output.js', path: fileURLToPath(new URL('../src/ui/terminal/ink-output.ts', import.meta.url)) },
  { importer: 'squash-text-nodes.js', specifier: './sanitize-ansi.js', path: fileURLToPath(new URL('../src/ui/terminal/ink-sanitize-ansi.ts', import.meta.url)) },
];
const inkModules = {
  name: 'ink-modules',
  setup(b) {
    // Ink's build directory wherever npm put it (hoisted, nested, or behind a symlink).
    let inkBuild;
    const inkBuildDir = async () => (inkBuild ??= dirname((await b.resolve('ink', { kind: 'import-statement', resolveDir: root })).path));
    b.onResolve({ filter: /^\.\/(output|sanitize-ansi)\.js$/ }, async (args) => {
      const hit = inkSubstitutes.find((s) => s.specifier === args.path && basename(args.importer) === s.importer);
      return hit && dirname(args.importer) === (await inkBuildDir()) ? { path: hit.path } : undefined;
    });
    b.onResolve({ filter: /^ink\/build\/[a-z-]+\.js$/ }, async (args) => ({ path: join(await inkBuildDir(), args.path.slice('ink/build/'.length)) }));
  },
};

await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.tsx'],
  bundle: true,
  splitting: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minify: !process.argv.includes('--no-minify'),
  legalComments: 'none',
  outdir,
  entryNames: 'synctop',
  chunkNames: 'chunks/[name]-[hash]',
  define: { 'process.env.NODE_ENV': '"production"' },
  external: ['react-devtools-core'],
  // jsonc-parser's package entry is UMD (a dynamic require per module): its ESM build bundles.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  banner: { js: "#!/usr/bin/env node\nimport{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  plugins: [memoizedStringWidth, inkModules],
  logLevel: 'info',
});

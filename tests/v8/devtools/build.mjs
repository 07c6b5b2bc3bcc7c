// build.mjs - bundle harness.ts and DevTools' heap snapshot worker sources
// (from the pinned npm package chrome-devtools-frontend) into dist/harness.mjs.
// Run by build.sh after npm ci.
import * as esbuild from 'esbuild';

// The npm package ships front_end/core/i18n/locales.d.ts but not locales.js,
// which DevTools' GN build generates. The heap snapshot worker only uses i18n
// for progress messages, which the harness discards, so give it en-US only.
const generatedLocales = {
  name: 'generated-locales',
  setup(build) {
    build.onResolve({filter: /^\.\/locales\.js$/}, args =>
      args.importer.endsWith('/core/i18n/i18nImpl.ts') ? {path: 'locales.js', namespace: 'generated'} : undefined);
    build.onLoad({filter: /.*/, namespace: 'generated'}, () => ({
      contents: `export const LOCALES = ['en-US'];
export const BUNDLED_LOCALES = ['en-US'];
export const DEFAULT_LOCALE = 'en-US';
export const REMOTE_FETCH_PATTERN = '';
export const LOCAL_FETCH_PATTERN = '';`,
      loader: 'js',
    }));
  },
};

await esbuild.build({
  entryPoints: ['harness.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',           // DevTools' HostRuntime uses top-level await: no CJS
  target: 'node20',
  outfile: 'dist/harness.mjs',
  plugins: [generatedLocales],
  logLevel: 'warning',
  legalComments: 'eof',
});

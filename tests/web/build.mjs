// Builds the page's library modules that run without a page (web/src/lib) into build/web-lib as
// plain ES modules for Node (Node 20 does not read TypeScript), with Vite, which builds the page
// the same way; their types are checked by `npm run build:web` (tsc -p web).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const OUT = path.join(ROOT, 'build/web-lib');
const MODULES = [
  'anytime',
  'bound',
  'embed',
  'frontier',
  'json-text',
  'limits',
  'lz-bounded',
  'progress',
  'program',
  'settings',
  'share',
  'whatif',
];

await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir: OUT,
    emptyOutDir: true,
    minify: false,
    target: 'node20',
    lib: {
      entry: Object.fromEntries(MODULES.map((m) => [m, path.join(ROOT, 'web/src/lib', `${m}.ts`)])),
      formats: ['es'],
    },
  },
});

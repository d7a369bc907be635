import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

// The playground: `npm run build:web` writes web/dist (relative asset paths, so it can be served
// from any folder). The engine (web/src/engine/generated/) comes from scripts/build-wasm.sh.
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
  },
  worker: { format: 'es' },
  server: { port: 5173 },
  preview: { port: 4173 },
});

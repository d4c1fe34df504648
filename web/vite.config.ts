// The web console's build (npm run build): static files under dist/web/, served by `hearth serve`
// at /console/. Everything is bundled (Preact, elkjs): the page needs no network but the API's.
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [preact()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // One chunk for the app, elkjs in its own (it is most of the weight).
    chunkSizeWarningLimit: 2000,
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});

import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

/**
 * The console is served by search-mcp-http under /ui with `script-src 'self'` (docs/console.md, "Signing in"), so the
 * build emits only external module scripts: no inline script, no eval, and no CDN (it must work offline).
 */
export default defineConfig({
  base: '/ui/',
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Vite inlines small assets as data: URLs; CSP allows `img-src data:` but not inline scripts, and scripts are
    // never inlined by Vite anyway. Keep the module preload polyfill out: every browser the console targets has it.
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
  },
});

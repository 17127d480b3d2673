// SPDX-License-Identifier: GPL-3.0-or-later
// The web UI's build: one HTML page, one script and one stylesheet with content hashes, into web/dist (which the
// server embeds). No timestamps, no source maps: the same sources give byte-identical output.
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8099',
      '/game/export': 'http://127.0.0.1:8099',
      '/ws': { target: 'ws://127.0.0.1:8099', ws: true },
    },
  },
});

// SPDX-License-Identifier: GPL-3.0-or-later
// The web UI's build: one HTML page, one script and one stylesheet with content hashes, into web/dist (which the
// server embeds). No timestamps, no source maps: the same sources give byte-identical output.
// The Chinese font web/fonts/GuoxiangCJK-{Regular,Bold}.woff2 (made by web/tools/subset-font.py, committed) comes in
// through style.css's @font-face rules; its license (SIL OFL 1.1) is emitted beside it, as the license asks.
import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';

function fontLicense(): Plugin {
  return {
    name: 'guoxiang-font-license',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        name: 'GuoxiangCJK.OFL.txt',
        source: readFileSync(new URL('./fonts/GuoxiangCJK.OFL.txt', import.meta.url)),
      });
    },
  };
}

export default defineConfig({
  base: '/',
  plugins: [fontLicense()],
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

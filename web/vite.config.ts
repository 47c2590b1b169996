import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const backend = process.env.TASKHUB_BACKEND ?? 'http://127.0.0.1:8080';
const proxied = ['/api', '/ws', '/media', '/dev', '/sandbox'];

/** Text files big enough to gain from compression; the server sends these `.br`/`.gz` siblings as they are. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const MIN_COMPRESSED_BYTES = 1024;

/**
 * Writes `file.br` and `file.gz` next to each built text file, at the highest levels (too slow to
 * do per request), for the server's precompressed file serving.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'taskhub-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const path of walk(outDir)) {
        if (!COMPRESSIBLE.test(path)) continue;
        const content = readFileSync(path);
        if (content.length < MIN_COMPRESSED_BYTES) continue;
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    rollupOptions: {
      // The service worker is a second entry, emitted unhashed as /sw.js: its URL must never change.
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        sw: fileURLToPath(new URL('./src/service-worker/sw.ts', import.meta.url)),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        // What the first page runs goes in the entry file: left alone, rolldown splits a dozen small
        // shared chunks off it, and over HTTP/1.1 each costs the first visit another request.
        codeSplitting: {
          groups: [{ name: 'index', tags: ['$initial'], test: (id: string) => !id.includes('/src/service-worker/') }],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      proxied.map((path) => [path, { target: backend, changeOrigin: true, ws: path === '/ws' }]),
    ),
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});

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

/**
 * The pages people most often land on (browse from search results, a task from a shared link) and
 * the modules they need. The server sends `tasks.html` for /tasks and builds /task/{id} from
 * `task.html`.
 */
const LANDING_PAGES = {
  'tasks.html': ['src/app/routes/marketplace/browse-tasks.tsx', 'src/lib/motion-provider.tsx'],
  'task.html': ['src/app/routes/marketplace/task-detail.tsx', 'src/lib/motion-provider.tsx'],
};

/**
 * Writes a copy of index.html for each landing page that also preloads the page's chunks (and
 * what they import), so they download with the entry instead of after it has run.
 */
function landingPages(): Plugin {
  let root = '';
  let outDir = 'dist';
  return {
    name: 'taskhub-landing-pages',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file]] : [])));
      const withImports = (fileName: string, files: Set<string>) => {
        if (files.has(fileName)) return;
        files.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) withImports(imported, files);
      };
      const inIndex = new Set<string>();
      for (const chunk of chunks.values()) if (chunk.isEntry && chunk.name === 'index') withImports(chunk.fileName, inIndex);
      for (const [page, modules] of Object.entries(LANDING_PAGES)) {
        const files = new Set<string>();
        for (const module of modules) {
          const chunk = [...chunks.values()].find((c) => c.facadeModuleId === resolve(root, module));
          if (!chunk) this.error(`${page}: no chunk for ${module}`);
          withImports(chunk.fileName, files);
        }
        const links = [...files]
          .filter((file) => !inIndex.has(file))
          .map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`)
          .join('');
        writeFileSync(join(outDir, page), String(index.source).replace('  </head>', `${links}  </head>`));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), landingPages(), precompress()],
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
        // A shared chunk's name lists the pages that use it, which makes for long URLs.
        chunkFileNames: (chunk) => (chunk.name.startsWith('shared~') ? 'assets/shared-[hash].js' : 'assets/[name]-[hash].js'),
        // What the first page runs goes in the entry file: left alone, rolldown splits a dozen small
        // shared chunks off it, and over HTTP/1.1 each costs the first visit another request. For the
        // same reason, what the lazily loaded pages share is grouped by the pages that use it, and
        // groups under 12 KB are merged with the closest one: a landing task page loads 8 chunks, not 16.
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], test: (id: string) => !id.includes('/src/service-worker/') },
            {
              name: 'shared',
              minShareCount: 2,
              entriesAware: true,
              entriesAwareMergeThreshold: 12_000,
              test: (id: string) => !id.includes('/src/service-worker/'),
            },
          ],
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

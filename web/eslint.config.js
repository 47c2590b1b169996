// The lint keeps the layers of docs/architecture.md ("The web app"): app → features → components,
// lib; a feature never imports another feature; shared code never imports a feature or the app;
// every query key comes from lib/query-keys.ts.
import { readdirSync } from 'node:fs';

import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// Imports go through the `@/` alias, so a layer is the path's first segment; relative imports
// could step around that, so only same-folder ones (`./x`) are allowed.
const noParentImports = { group: ['../*'], message: 'Import through `@/…` so the layer rules can see it.' };
const noApp = { group: ['@/app', '@/app/*'], message: 'Only the app imports from src/app.' };
const noFeatures = {
  group: ['@/features', '@/features/*'],
  message: 'Shared code (components, lib) never imports a feature: move what both need into components/ or lib/.',
};

const keyLiteral = 'Take query keys from `queryKeys` in @/lib/query-keys, the one registry of them.';

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'src/lib/api-schema.d.ts'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-restricted-imports': ['error', { patterns: [noParentImports] }],
      'no-restricted-syntax': [
        'error',
        { selector: "Property[key.name='queryKey'] > ArrayExpression", message: keyLiteral },
        { selector: 'VariableDeclarator[id.name=/[kK]eys?$/] > TSAsExpression > ArrayExpression', message: keyLiteral },
      ],
    },
  },
  {
    files: ['src/components/**', 'src/lib/**', 'src/testing/**', 'src/service-worker/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noParentImports, noApp, noFeatures] }] },
  },
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noParentImports,
            noApp,
            {
              group: ['@/features/*', `!@/features/${feature}`, `!@/features/${feature}/**`],
              message: 'A feature never imports another feature: the app composes them, and what both need goes into components/ or lib/.',
            },
          ],
        },
      ],
    },
  })),
  {
    // Tests may spell a key out to check what the registry builds.
    files: ['src/**/*.test.{ts,tsx}', 'src/lib/query-keys.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);

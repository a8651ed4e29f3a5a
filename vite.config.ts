import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The forms' schemas and their precompiled validators (src/cli/compile-validators.ts) may come
 * from other folders, so a bank or a product owner can build from an edited copy of schemas/
 * without touching src/ (the server reads the same SCHEMAS_DIR). src/client/forms/schemas.ts
 * reads them through these two aliases only.
 */
const schemasDir = resolve(root, process.env.SCHEMAS_DIR ?? 'schemas');
const validatorsDir = resolve(root, process.env.VALIDATORS_DIR ?? 'src/client/generated/validators');

export default defineConfig({
  root: `${root}src/client`,
  publicDir: false,
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^@schemas\//, replacement: `${schemasDir}/` },
      { find: /^@validators\//, replacement: `${validatorsDir}/` },
      // The validators import ajv's runtime helpers; from a folder outside the repository these
      // are found in the repository's own node_modules.
      { find: /^(ajv|ajv-formats)\/(.*)$/, replacement: `${root}node_modules/$1/$2` },
    ],
  },
  build: {
    outDir: `${root}dist/client`,
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    // Keep every script in a file: the CSP allows no inline script.
    modulePreload: { polyfill: false },
  },
  server: { fs: { allow: [root, schemasDir, validatorsDir] } },
  test: {
    root,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The product's specification tests: the shipped files against ../shared/spec.md (tests/product/spec.ts).
          name: 'product',
          include: ['tests/product/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The product's specification tests of its screens, in a DOM as the component tests.
          name: 'product-screens',
          include: ['tests/product/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/component/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['tests/component/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/component/setup.ts'],
        },
      },
    ],
  },
});

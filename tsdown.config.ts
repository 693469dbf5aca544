import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    sqlite: 'src/stores/sqlite.ts',
    postgres: 'src/stores/postgres.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  dts: true,
  deps: { onlyBundle: ['@standard-schema/spec'] },
  clean: true,
  sourcemap: true,
});

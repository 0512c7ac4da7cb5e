import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 15000,
    hookTimeout: 15000,
    pool: 'forks',
    // Type tests (`expectTypeOf`) run against the BUILT declarations: test/types
    // imports 'switchyardjs' by its own package name (self-reference through "exports").
    typecheck: {
      enabled: true,
      include: ['test/types/**/*.test-d.ts'],
      tsconfig: './test/types/tsconfig.json'
    }
  }
})

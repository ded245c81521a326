/** Jest runs TypeScript as ESM (the @actions/* packages are ESM-only). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': '<rootDir>/test/jest/strip-types.js' },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // Generous: a whole-action test on a loaded machine can take several times its idle time; a run
  // that hangs is killed by its own helper (RunOptions.killAfterMs, 60 s by default) well before.
  testTimeout: 180_000,
  // Most test files spend their time waiting on real clocks (whole-action runs of dist/ against the
  // simulator), not on the CPU: more workers than cores keep both cores busy. See docs/development.md.
  maxWorkers: 8,
  // One directory per run for work the test files share (the one `npm pack`: test/helpers/pack.ts).
  globalSetup: '<rootDir>/test/jest/global-setup.js',
  globalTeardown: '<rootDir>/test/jest/global-teardown.js',
  // Longest files first, from their saved durations or their `slow (about N s)` headers.
  testSequencer: '<rootDir>/test/jest/sequencer.js',
}

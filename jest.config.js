import { availableParallelism } from 'node:os'

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
  // simulator), not on the CPU: two workers a core keep the cores busy. More cost CPU without saving
  // time (on 2 cores, 8 workers took about 15% more CPU than 4). A number: Jest reads "200%" as 200.
  // See docs/development.md, "How long the tests take".
  maxWorkers: 2 * availableParallelism(),
  // One directory per run for work the test files share (the one `npm pack`: test/helpers/pack.ts).
  globalSetup: '<rootDir>/test/jest/global-setup.js',
  globalTeardown: '<rootDir>/test/jest/global-teardown.js',
  // Longest files first, from their saved durations or their `slow (about N s)` headers.
  testSequencer: '<rootDir>/test/jest/sequencer.js',
}

/**
 * A directory that every test file of this Jest run shares (its workers inherit the variable), for
 * work done once per run: the one `npm pack` (`test/helpers/pack.ts`). Removed by global-teardown.js.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export default function globalSetup() {
  process.env.SITE_STAGING_TEST_SHARED = mkdtempSync(path.join(tmpdir(), 'site-staging-tests-'))
}

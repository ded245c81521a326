/** Removes the run's shared directory (global-setup.js). */
import { rmSync } from 'node:fs'

export default function globalTeardown() {
  const shared = process.env.SITE_STAGING_TEST_SHARED
  if (shared) rmSync(shared, { recursive: true, force: true })
}

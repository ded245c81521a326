/**
 * One `npm pack` of this repository per Jest run, shared by every test file that needs the packed
 * CLI (the GitLab pipelines install it, the npm package and the pipe's image test read and install
 * it): each pack is about 2 s of CPU, and they all packed the same dist/ and package.json. The
 * first file to ask packs into the run's shared directory (`test/jest/global-setup.js`); the others
 * wait for its report. A tarball is never changed by a test: each installs or extracts it elsewhere.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { ROOT } from './run-action.js'

/** What `npm pack --json` reports of the one package (the same list and size `--dry-run` prints). */
export interface PackReport {
  name: string
  filename: string
  files: { path: string }[]
  size: number
}

let mine: Promise<{ report: PackReport; tarball: string }> | undefined

/** The run's `npm pack`: its report and its tarball's path. */
export function packed(): Promise<{ report: PackReport; tarball: string }> {
  return (mine ??= packOnce())
}

async function packOnce(): Promise<{ report: PackReport; tarball: string }> {
  const shared = process.env.SITE_STAGING_TEST_SHARED
  if (!shared) throw new Error('SITE_STAGING_TEST_SHARED is not set: run the tests with jest.config.js')
  const dir = path.join(shared, 'npm-pack')
  const reportFile = path.join(dir, 'report.json')
  const failedFile = path.join(dir, 'failed.txt')
  let first = true
  try {
    mkdirSync(dir)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    first = false
  }
  if (first) {
    try {
      const { stdout } = await promisify(execFile)(
        'npm',
        ['pack', '--json', '--pack-destination', dir, '--cache', path.join(dir, 'npm-cache')],
        { cwd: ROOT, env: { ...process.env, npm_config_loglevel: 'error' }, maxBuffer: 20 * 1024 * 1024 },
      )
      writeFileSync(`${reportFile}.part`, stdout)
      renameSync(`${reportFile}.part`, reportFile)
    } catch (e) {
      writeFileSync(failedFile, String(e))
      throw e
    }
  }
  // Generous: another file's pack on a loaded machine.
  for (const until = Date.now() + 170_000; !existsSync(reportFile); await sleep(100)) {
    if (existsSync(failedFile))
      throw new Error(`npm pack failed in another test file: ${readFileSync(failedFile, 'utf8')}`)
    if (Date.now() > until) throw new Error(`npm pack: no report in ${dir} after 170 s`)
  }
  const [report] = JSON.parse(readFileSync(reportFile, 'utf8')) as PackReport[]
  return { report: report!, tarball: path.join(dir, report!.filename) }
}

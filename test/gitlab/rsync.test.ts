/**
 * The rsync stand-in (test/helpers/rsync.mjs) that gitlab-ci-local runs in these tests, on each form
 * of command gitlab-ci-local sends (copied from its source), and on what it must refuse.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { standInBin } from '../helpers/gitlab.js'

const run = promisify(execFile)
let dir: string
let bin: string
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rsync-stand-in-'))
  bin = standInBin(path.join(dir, 'home'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs a command line through bash, as gitlab-ci-local does, with the stand-in first on the PATH. */
const bash = (cwd: string, line: string) =>
  run('bash', ['-c', line], { cwd, env: { PATH: `${bin}:/usr/bin:/bin` } })

function tree(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
    writeFileSync(path.join(root, rel), text)
  }
  return root
}
const read = (f: string) => readFileSync(f, 'utf8')

test('a copy of the project: excludes from files and flags, --delete and --delete-excluded', async () => {
  const project = tree(path.join(dir, 'p1'), {
    'a.txt': 'a',
    'src/b.txt': 'b',
    'node_modules/x/i.js': 'x',
    '.git/lfs/big': 'lfs',
    '.git/HEAD': 'ref',
    'state/builds/job/stale.txt': 'old',
    'state/builds/job/node_modules/y.js': 'y',
  })
  writeFileSync(path.join(project, 'state/exclude'), '/node_modules/\n')
  await bash(
    project,
    'rsync -a --delete-excluded --delete --exclude-from=state/exclude --exclude .git/lfs --exclude state/ ./ state/builds/job/',
  )
  const out = path.join(project, 'state/builds/job')
  expect(read(path.join(out, 'a.txt'))).toBe('a')
  expect(read(path.join(out, 'src/b.txt'))).toBe('b')
  expect(read(path.join(out, '.git/HEAD'))).toBe('ref')
  for (const gone of ['node_modules', '.git/lfs', 'state', 'stale.txt'])
    expect([gone, existsSync(path.join(out, gone))]).toEqual([gone, false])
})

test('artifacts: --files-from with -rRa keeps the paths; a dotenv report with -Ra', async () => {
  const project = tree(path.join(dir, 'p2'), {
    'site-staging.env': 'RESULT=succeeded\n',
    'out/report/r.json': '{}',
    '.gitlab-ci-local/x': 'no',
  })
  writeFileSync(path.join(dir, 'list'), './out\n./site-staging.env\n')
  await bash(
    project,
    `rsync --exclude '.gitlab-ci-local/**' -rRa --files-from=${dir}/list . ../art/job/. || true`,
  )
  expect(read(path.join(dir, 'art/job/out/report/r.json'))).toBe('{}')
  expect(read(path.join(dir, 'art/job/site-staging.env'))).toBe('RESULT=succeeded\n')
  await bash(project, 'rsync -Ra ./site-staging.env ../art/job/.gitlab-ci-reports/dotenv/.')
  expect(read(path.join(dir, 'art/job/.gitlab-ci-reports/dotenv/site-staging.env'))).toBe(
    'RESULT=succeeded\n',
  )
  // Back into a project, without the reports directory; modes kept.
  const back = path.join(dir, 'p3')
  mkdirSync(back)
  await bash(dir, `rsync --exclude=/.gitlab-ci-reports/ -a art/job/. ${back}`)
  expect(existsSync(path.join(back, 'site-staging.env'))).toBe(true)
  expect(existsSync(path.join(back, '.gitlab-ci-reports'))).toBe(false)
  expect(statSync(path.join(back, 'out/report/r.json')).mode & 0o777).toBe(
    statSync(path.join(project, 'out/report/r.json')).mode & 0o777,
  )
})

test('a missing source is exit 23 with the message; an option it does not know is refused', async () => {
  const missing = await bash(dir, 'rsync -Ra ./nothing-here dest/.').catch((e) => e)
  expect(missing.code).toBe(23)
  expect(missing.stderr).toMatch(/link_stat ".*nothing-here" failed: No such file or directory/)
  const unknown = await bash(dir, 'rsync -az a b').catch((e) => e)
  expect(unknown.code).toBe(1)
  expect(unknown.stderr).toMatch(/option -az is not supported/)
})

/**
 * Issue 24 §12: publishing is one checked step. The owner of the repository, the pipe's image and the
 * GitLab components is one value, package.json's repository.url; `npm run release:set-owner -- NAME`
 * changes it and stamps every file a user copies from. Until then the placeholder is honest: every
 * copyable file says OWNER, and the README says what is published and what is not yet.
 */
import { describe, expect, test } from '@jest/globals'
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ROOT } from '../helpers/run-action.js'
// @ts-expect-error -- a plain .mjs script, typed by use
import { COPYABLE, copyableFiles, ownerOf } from '../../scripts/set-owner.mjs'

const files = (root: string) => copyableFiles(root) as string[]
const read = (root: string, rel: string) => readFileSync(path.join(root, rel), 'utf8')
/** Every owner a copyable file names for the repository, the image or the components. */
const namedOwners = (text: string) =>
  [...text.matchAll(/(?<![\w.-])([\w.-]+)\/site-staging-(?:action|pipe)\b/g)].map((m) => m[1]!)

/** A copy of what the script reads and writes. */
function copyOfRepository(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'publishing-'))
  for (const rel of [...(COPYABLE as string[]), 'scripts/set-owner.mjs'])
    cpSync(path.join(ROOT, rel), path.join(dir, rel), { recursive: true, errorOnExist: false })
  return dir
}

describe('this repository, before the release', () => {
  const owner = ownerOf(ROOT) as string
  test('every copyable file names the owner package.json names, and no other', () => {
    expect(files(ROOT).length).toBeGreaterThan(20)
    for (const rel of files(ROOT))
      for (const named of namedOwners(read(ROOT, rel))) expect(`${rel}: ${named}`).toBe(`${rel}: ${owner}`)
    const check = spawnSync(process.execPath, [path.join(ROOT, 'scripts/set-owner.mjs'), '--check'])
    expect(check.status).toBe(0)
  })
  test('the placeholder is honest: while it is OWNER, the README says what is not published yet', () => {
    const readme = read(ROOT, 'README.md')
    if (owner === 'OWNER') {
      expect(readme).toMatch(/^## What is published$/m)
      expect(readme).toMatch(/not on npm yet/)
      expect(read(ROOT, 'docs/npm-README.md')).toContain('<!-- not-yet-published:begin -->')
    } else {
      // Once set, no placeholder is left anywhere a user copies from.
      for (const rel of files(ROOT))
        expect(`${rel}: ${/\bOWNER\b/.test(read(ROOT, rel))}`).toBe(`${rel}: false`)
    }
  })
})

describe('npm run release:set-owner -- NAME', () => {
  test('stamps one value everywhere a user copies from: no placeholder is left', () => {
    const dir = copyOfRepository()
    try {
      execFileSync(process.execPath, ['scripts/set-owner.mjs', 'acme-web'], { cwd: dir, stdio: 'pipe' })
      const pkg = JSON.parse(read(dir, 'package.json'))
      expect(pkg.repository.url).toBe('git+https://github.com/acme-web/site-staging-action.git')
      expect(pkg.homepage).toBe('https://github.com/acme-web/site-staging-action#readme')
      for (const rel of files(dir)) {
        const text = read(dir, rel)
        expect(`${rel}: ${/\bOWNER\b/.test(text)}`).toBe(`${rel}: false`)
        for (const named of namedOwners(text)) expect(`${rel}: ${named}`).toBe(`${rel}: acme-web`)
      }
      // What a user copies: the action, the components, the pipe, the clone.
      const readme = read(dir, 'README.md')
      expect(readme).toContain('uses: acme-web/site-staging-action@v1')
      expect(readme).toContain('component: gitlab.com/acme-web/site-staging-action/staging@1')
      expect(read(dir, 'docs/cli.md')).toContain('docker://acme-web/site-staging-pipe:1')
      expect(read(dir, 'docs/npm-README.md')).toContain(
        'git clone https://github.com/acme-web/site-staging-action.git',
      )
      expect(spawnSync(process.execPath, ['scripts/set-owner.mjs', '--check'], { cwd: dir }).status).toBe(0)
      // And again, to another owner: only the project's names change.
      execFileSync(process.execPath, ['scripts/set-owner.mjs', 'web-team'], { cwd: dir, stdio: 'pipe' })
      expect(read(dir, 'README.md')).toContain('uses: web-team/site-staging-action@v1')
      expect(spawnSync(process.execPath, ['scripts/set-owner.mjs', '--check'], { cwd: dir }).status).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
  test('--check fails when one copyable file names another owner', () => {
    const dir = copyOfRepository()
    try {
      const rel = 'examples/manual.yml'
      writeFileSync(
        path.join(dir, rel),
        read(dir, rel).replace('OWNER/site-staging-action', 'someone/site-staging-action'),
      )
      const check = spawnSync(process.execPath, ['scripts/set-owner.mjs', '--check'], {
        cwd: dir,
        encoding: 'utf8',
      })
      expect(check.status).toBe(1)
      expect(check.stderr).toContain(rel)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
  test('refuses a name that is not an account name, and the placeholder itself', () => {
    for (const bad of ['', 'a/b', '-x', 'OWNER', 'has space'])
      expect(spawnSync(process.execPath, [path.join(ROOT, 'scripts/set-owner.mjs'), bad]).status).toBe(2)
  })
})

#!/usr/bin/env node
// Publishing is one checked step: the owner of the repository, of the pipe's image and of the
// GitLab components is one value, package.json's `repository.url`. Until the first release it is
// the placeholder OWNER, and every place a user copies from says OWNER too. This script changes
// that one value and stamps it everywhere a user copies from:
//
//   npm run release:set-owner -- acme            # github.com/acme/site-staging-action,
//                                                # docker://acme/site-staging-pipe,
//                                                # gitlab.com/acme/site-staging-action/...
//   npm run release:set-owner -- --check         # exit 1 if a copyable file disagrees with it
//
// The one owner name is used on GitHub, GitLab and Docker Hub alike (docs/assumptions.md).
// test/docs/publishing.test.ts runs it on a copy and fails if a placeholder is left.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const PLACEHOLDER = 'OWNER'
/** Where a user copies from: every text file under these (the README, docs, examples, templates, the pipe). */
export const COPYABLE = [
  'README.md',
  'action.yml',
  '.gitlab-ci.yml',
  'package.json',
  'docs',
  'examples',
  'templates',
  'pipe',
  '.github/ISSUE_TEMPLATE',
]
const TEXT = /\.(md|ya?ml|json|txt)$|(^|\/)Dockerfile$/

const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/

/** The owner package.json names: `git+https://github.com/OWNER/site-staging-action.git` -> `OWNER`. */
export function ownerOf(root) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  const m = /github\.com\/([^/]+)\/site-staging-action(\.git)?$/.exec(pkg.repository?.url ?? '')
  if (!m)
    throw new Error(
      `package.json repository.url does not name github.com/<owner>/site-staging-action: ${pkg.repository?.url}`,
    )
  return m[1]
}

/** Every copyable text file under `root`, as paths relative to it. */
export function copyableFiles(root) {
  const out = []
  const walk = (rel) => {
    const abs = path.join(root, rel)
    let stat
    try {
      stat = statSync(abs)
    } catch {
      return
    }
    if (stat.isDirectory()) for (const name of readdirSync(abs).sort()) walk(path.join(rel, name))
    else if (TEXT.test(rel)) out.push(rel)
  }
  for (const rel of COPYABLE) walk(rel)
  return out
}

/** `text` with `from` replaced by `to` wherever it names the project's repository, image or components. */
export function stamped(text, from, to) {
  const esc = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  let out = text.replace(
    new RegExp(`(?<![\\w.-])${esc}/site-staging-(action|pipe)\\b`, 'g'),
    `${to}/site-staging-$1`,
  )
  // The placeholder is named on its own too ("OWNER is the organisation that hosts it").
  if (from === PLACEHOLDER) out = out.replace(/\bOWNER\b/g, to)
  return out
}

function main(argv) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const current = ownerOf(root)
  if (argv[0] === '--check') {
    const wrong = copyableFiles(root).filter((rel) => {
      const text = readFileSync(path.join(root, rel), 'utf8')
      const named = [...text.matchAll(/(?<![\w.-])([\w.-]+)\/site-staging-(?:action|pipe)\b/g)].map(
        (m) => m[1],
      )
      return named.some((o) => o !== current) || (current !== PLACEHOLDER && /\bOWNER\b/.test(text))
    })
    if (wrong.length > 0) {
      console.error(`Not every copyable file names ${current}:\n  ${wrong.join('\n  ')}`)
      process.exit(1)
    }
    console.error(`Every copyable file names ${current}.`)
    return
  }
  const next = argv[0]
  if (!next || !NAME.test(next) || next === PLACEHOLDER) {
    console.error('usage: npm run release:set-owner -- NAME   (a GitHub/GitLab/Docker Hub account name)')
    process.exit(2)
  }
  let changed = 0
  for (const rel of copyableFiles(root)) {
    const file = path.join(root, rel)
    const text = readFileSync(file, 'utf8')
    const out = stamped(text, current, next)
    if (out !== text) {
      writeFileSync(file, out)
      changed++
    }
  }
  console.error(`${current} -> ${next}: ${changed} file(s) changed. Check them with git diff, then commit.`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2))

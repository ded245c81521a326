#!/usr/bin/env node
// The npm package's README is the CLI's (docs/npm-README.md), not the action's (README.md).
//
// npm always packs the README.md at the package's root, whatever `files` says, and the registry
// shows that file. So `prepack` puts the CLI's README there and `postpack` puts the action's back:
//
//   node scripts/npm-readme.mjs prepack    (package.json "prepack")
//   node scripts/npm-readme.mjs postpack   (package.json "postpack")
//
// The README packed is docs/npm-README.md without its "not on npm yet" note, and a pack for
// publishing stops when it still names the OWNER placeholder.
//
// It does so when publishing (npm sets npm_command=publish: the release job, on a fresh checkout),
// or when SITE_STAGING_CLI_README=1 asks for it. A plain `npm pack` in a working copy leaves
// README.md alone: tests pack the CLI there while other tests read README.md.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const README = path.join(ROOT, 'README.md')
const CLI_README = path.join(ROOT, 'docs', 'npm-README.md')
const KEPT = path.join(ROOT, '.README.action.md')

const wanted = process.env.npm_command === 'publish' || process.env.SITE_STAGING_CLI_README === '1'
const step = process.argv[2]

if (step === 'prepack') {
  if (!wanted) {
    console.error(
      "README.md: the action's (a pack for publishing, or SITE_STAGING_CLI_README=1, packs the CLI's)",
    )
  } else {
    if (existsSync(KEPT))
      fail(
        `${path.basename(KEPT)} exists: an earlier pack did not finish. Run "node scripts/npm-readme.mjs postpack" first.`,
      )
    const text = readFileSync(CLI_README, 'utf8')
    if (!text.startsWith('# site-staging'))
      fail('docs/npm-README.md does not start with "# site-staging": is it the CLI\'s README?')
    // What the registry shows is published: the "not on npm yet" note goes. The repository it names
    // must be a real one (npm run release:set-owner -- NAME), never the OWNER placeholder.
    const published = text.replace(
      /<!-- not-yet-published:begin -->[\s\S]*?<!-- not-yet-published:end -->\n\n?/,
      '',
    )
    if (/\bOWNER\b/.test(published))
      fail('docs/npm-README.md still names OWNER: run "npm run release:set-owner -- NAME" first.')
    renameSync(README, KEPT)
    writeFileSync(README, published)
    console.error("README.md: the CLI's (docs/npm-README.md) for this pack")
  }
} else if (step === 'postpack') {
  if (existsSync(KEPT)) {
    renameSync(KEPT, README)
    console.error("README.md: the action's again")
  }
} else fail('usage: node scripts/npm-readme.mjs prepack|postpack')

function fail(message) {
  console.error(`npm-readme: ${message}`)
  process.exit(1)
}

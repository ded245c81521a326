/**
 * docs/cli.md stays true to the command: its usage block is the --help text, and every
 * `site-staging` / `node site-staging.mjs` command line in it uses operations and flags that exist.
 */
import { beforeAll, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from '../helpers/run-action.js'
import { runCli } from '../helpers/run-cli.js'

const DOC = readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8')
let help = ''
beforeAll(async () => {
  const r = await runCli(['--help'])
  expect(r.code).toBe(0)
  help = r.stdout
})

test('the usage block is the output of --help', () => {
  const block = /```text\n(Usage: site-staging[\s\S]*?)```/.exec(DOC)
  expect(block).not.toBeNull()
  expect(block![1]!.trimEnd()).toBe(help.trimEnd())
})

test('every command line in the snippets uses a real operation and real flags', () => {
  const lines = DOC.split('\n').filter((l) =>
    /site-staging(\.mjs|@[\w.]+)? (create|pull|push|delete|status|"\$OPERATION")/.test(l),
  )
  // (GitLab's command lines are in the components, which test/gitlab/ runs; the Bitbucket snippet
  // runs the pipe; the CircleCI/Jenkins/Azure recipes are also checked one by one, operation and
  // flag values included, in recipes.test.ts.)
  expect(lines.length).toBeGreaterThanOrEqual(4)
  const known = new Set([...help.matchAll(/(?<![\w-])(--[a-z][a-z-]*)/g)].map((m) => m[1]!))
  for (const line of lines) {
    for (const [flag] of line.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)) {
      if (['--global', '--fail', '--silent', '--location', '--output'].includes(flag)) continue
      expect(known.has(flag) ? flag : `unknown flag ${flag} in: ${line.trim()}`).toBe(flag)
    }
  }
})

test('each CI system has its section and snippet', () => {
  for (const name of ['GitLab CI', 'Bitbucket Pipelines', 'CircleCI', 'Jenkins'])
    expect(DOC).toMatch(new RegExp(`^## ${name}$`, 'm'))
  // GitLab's section points to the components (docs/gitlab.md), which test/gitlab/ runs.
  expect(DOC).toMatch(/^## GitLab CI\n\nUse the CI\/CD components: `include: - component: [^`]+\/staging@1`/m)
  expect(DOC).toMatch(/```groovy\npipeline \{/)
  expect(DOC).toMatch(/credentials\('staging-api-token'\)/)
})

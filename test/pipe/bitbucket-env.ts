/**
 * What a Bitbucket step gives the pipe's container, and what a later command of the step sees after
 * `source`-ing the pipe's outputs file: shared by the whole-process runs of the image's entry
 * (test/pipe/pipe.test.ts) and the in-process ones (test/unit/pipe-entry.test.ts).
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'

/** The variables Bitbucket gives a pipe's container (the step's BITBUCKET_* and CI), plus the pipe's. */
export function bitbucketEnv(dir: string, variables: Record<string, string>): Record<string, string> {
  const shared = path.join(dir, '.bitbucket/pipelines/generated/pipeline/pipes')
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    CI: 'true',
    BITBUCKET_BUILD_NUMBER: '42',
    BITBUCKET_CLONE_DIR: dir,
    BITBUCKET_COMMIT: 'a'.repeat(40),
    BITBUCKET_BRANCH: 'main',
    BITBUCKET_WORKSPACE: 'acme',
    BITBUCKET_REPO_SLUG: 'site',
    BITBUCKET_REPO_FULL_NAME: 'acme/site',
    BITBUCKET_PIPELINE_UUID: '{00000000-0000-0000-0000-000000000001}',
    BITBUCKET_STEP_UUID: '{00000000-0000-0000-0000-000000000002}',
    BITBUCKET_PIPE_SHARED_STORAGE_DIR: shared,
    BITBUCKET_PIPE_STORAGE_DIR: path.join(shared, 'owner/site-staging-pipe'),
    ...variables,
  }
}

/** What a later command of the step sees after `source`-ing the file. */
export function sourced(
  file: string,
  names: string[],
  extraEnv: Record<string, string> = {},
): Record<string, string> {
  const script = `${file}\n${names.map((k) => `printf '%s\\0' "$${k}"`).join('\n')}`
  const out = execFileSync('sh', ['-c', script], {
    env: { PATH: process.env.PATH ?? '', ...extraEnv },
  }).toString()
  const values = out.split('\0')
  return Object.fromEntries(names.map((k, i) => [k, values[i]!]))
}

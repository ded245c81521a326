// Slow (about 25 s): an npm pack and two gitlab-ci-local runs of a two-job matrix against the simulator.
/**
 * Issue 33 §3: docs/gitlab.md's `parallel: matrix` over sites, run by gitlab-ci-local as written
 * (the include pointed at a local copy of the components and the CLI at the packed tarball, the
 * only two changes): one job per site, named by its site, each with its own log and result, on a
 * schedule only; all jobs under one token.
 */
import { afterAll, beforeAll, expect, jest, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parse, stringify } from 'yaml'
import { SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { gitlabCiLocal, jobLog, makeProject, type Project } from '../helpers/gitlab.js'
import { packed } from '../helpers/pack.js'
import { OWNER } from '../helpers/owner.js'
import { ROOT } from '../helpers/run-action.js'
import { sentTo } from '../helpers/sim.js'

jest.setTimeout(600_000)

const DOC = readFileSync(path.join(ROOT, 'docs/gitlab.md'), 'utf8')
const BLOCK = /<!-- gitlab-matrix:begin -->\n```yaml\n([\s\S]*?)```\n<!-- gitlab-matrix:end -->/.exec(
  DOC,
)?.[1]
let dir: string
let tarball: string
let project: Project
let sim: Simulator

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gitlab-matrix-'))
  ;[tarball, project, sim] = await Promise.all([
    packed().then((p) => p.tarball),
    makeProject(path.join(dir, 'project')),
    start({ port: 0, durationsMs: { pull: 300 }, siteDelayMs: 0 }),
  ])
})
afterAll(async () => {
  await sim?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** The block as a user copies it, with the include pointed at the local components and the tarball. */
function pipeline(): string {
  const doc = parse(BLOCK!) as { include: { component: string; inputs: Record<string, unknown> }[] }
  for (const inc of doc.include) {
    expect(inc.component).toBe(`gitlab.com/${OWNER}/site-staging-action/staging@1`)
    inc.component = project.component('staging')
    inc.inputs = { ...inc.inputs, 'cli-package': tarball }
  }
  return stringify(doc)
}

test('the matrix: one job per site, its variable SITE_ID, its own resource group', () => {
  expect(BLOCK).toBeDefined()
  const doc = parse(BLOCK!)
  expect(doc.include[0].inputs['site-id']).toBe('$SITE_ID')
  expect(doc.include[0].inputs['resource-group']).toBe('staging-$SITE_ID')
  expect(doc['staging:pull'].parallel.matrix).toEqual([{ SITE_ID: ['1001', '1002'] }])
  // It says when one job is better, when a matrix is, and what the shared limit costs.
  const after = DOC.slice(DOC.indexOf('<!-- gitlab-matrix:end -->'))
  expect(after).toMatch(/One job with many ids or a matrix\?/)
  expect(after).toMatch(/its own\s+\*\*Retry\*\*/)
  expect(after).toMatch(/share the account's rate\s+limit/)
})

test('run by gitlab-ci-local on a schedule: a job per site, each with its own result; none on a push', async () => {
  const variables = { STAGING_API_TOKEN: SIM_TOKENS.readWrite, STAGING_API_URL: sim.apiUrl }
  const yaml = pipeline()
  const listed = await gitlabCiLocal(project, yaml, ['--list'], variables)
  expect(listed.output).not.toMatch(/staging:pull/)
  const run = await gitlabCiLocal(project, yaml, ['--variable', 'CI_PIPELINE_SOURCE=schedule'], variables)
  expect(run.code).toBe(0)
  const of = (site: string) => jobLog(run.output, `staging:pull: [${site}]`)
  expect(of('1002')).toMatch(/^Staging pull succeeded \(site 1002\)/m)
  expect(of('1002')).not.toMatch(/site 1001/)
  expect(of('1001')).toMatch(/skipped/)
  expect(of('1001')).not.toMatch(/site 1002/)
  // One pull each, under the one token.
  expect(
    sentTo(sim, 'POST', '/staging/reset')
      .map((r) => `${r.path} ${r.status}`)
      .sort(),
  ).toEqual(['/v2/sites/1001/staging/reset 404', '/v2/sites/1002/staging/reset 202'])
})

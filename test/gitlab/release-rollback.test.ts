// Slow (about 30 s): npm pack, then two gitlab-ci-local runs one after the other (the rollback
// reads the push's report), each installing the CLI from the packed tarball.
/**
 * The GitLab release pipeline (examples/gitlab/release.gitlab-ci.yml) as a user runs it, by a real
 * GitLab pipeline runner (gitlab-ci-local), against the simulator's service profile (the hosted
 * service's shapes, contract §13): a person starts the manual push job on a version tag; it takes a
 * checkpoint of production (a site version, followed to completed) before the push, and writes its
 * id as CHECKPOINT_ID to its dotenv report. Then a person starts the manual staging:rollback job,
 * which gets CHECKPOINT_ID from that report (GitLab passes the dotenv reports of earlier stages'
 * jobs to a later stage's job, and gitlab-ci-local does the same from its artifacts) and restores
 * production to that version.
 */
import { afterAll, beforeAll, expect, jest, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'
import { examplePipeline, gitlabCiLocal, jobLog, makeProject } from '../helpers/gitlab.js'
import { packed } from '../helpers/pack.js'
import { sentTo } from '../helpers/sim.js'

jest.setTimeout(600_000)

const SITE = String(SIM_SITES.withStaging)
let dir: string
let sim: Simulator

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gitlab-release-'))
  sim = await start({
    port: 0,
    profile: 'service',
    durationsMs: { push: 200, version: 300, restore: 300 },
    siteDelayMs: 0,
  })
})
afterAll(async () => {
  await sim?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** Production's files and database now, as the simulator holds them. */
const production = () => ({ ...sim.state.sites.get(SITE)!.content })

test('release: the push job takes a checkpoint, then pushes; the manual rollback job restores it from CHECKPOINT_ID', async () => {
  const [tarball, project] = await Promise.all([
    packed().then((p) => p.tarball),
    makeProject(path.join(dir, 'project')),
  ])
  const yaml = examplePipeline(project, tarball, 'release')
  const token = SIM_TOKENS.readWrite
  const vars = {
    STAGING_API_TOKEN: token,
    STAGING_API_URL: sim.apiUrl,
    SITE_ID: SITE,
    // Production's own page, which the simulator serves and a push changes (the production check).
    PRODUCTION_URL: `${sim.url}/production-sites/${SITE}/`,
    PRODUCTION_EXPECT: `Production site ${SITE}`,
  }
  const tag = ['--variable', 'CI_COMMIT_TAG=v1.4.0']
  const before = production()

  // A person starts the push (after the environment's approval, in GitLab).
  const push = await gitlabCiLocal(project, yaml, [...tag, 'staging:push'], vars)
  const pushLog = jobLog(push.output, 'staging:push')
  expect(push.code).toBe(0)
  expect(pushLog).toMatch(/^Staging push succeeded \(site 1002\)/m)

  // One version of production, made by this run, completed; the push sent once, after that.
  const versions = [...sim.state.siteVersions.values()].filter((v) => String(v.site_id) === SITE)
  expect(versions).toHaveLength(1)
  const checkpoint = versions[0]!
  expect(checkpoint).toMatchObject({ status: 'completed', content: before })
  expect(checkpoint.name).toMatch(/^ssa~cp~\S+$/)
  expect(checkpoint.name!.length).toBeLessThanOrEqual(25)
  const versionTask = sim.state.tasks.get(checkpoint.task_id!)!
  const pushes = sentTo(sim, 'POST', '/staging/push')
  expect(pushes).toHaveLength(1)
  expect(pushes[0]!.at).toBeGreaterThanOrEqual(versionTask.ends_at)
  const order = sim.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)
  expect(order.indexOf('POST /api/v2/site-versions')).toBeLessThan(
    order.indexOf(`POST /api/v2/sites/${SITE}/staging/push`),
  )
  // The push changed production: what the rollback must undo.
  expect(production()).not.toEqual(before)
  const pushed = production()

  // The push job's dotenv report names the checkpoint; the log says the step back.
  const id = String(checkpoint.id)
  const report = readFileSync(path.join(project.dir, 'site-staging.env'), 'utf8')
  expect(report).toMatch(new RegExp(`^CHECKPOINT_ID=${id}$`, 'm'))
  // Production was checked on its own page after the push (PRODUCTION_URL, PRODUCTION_EXPECT).
  expect(report).toMatch(/^PRODUCTION_CHECK=passed$/m)
  expect(sim.siteRequests.some((r) => r.path.startsWith(`/production-sites/${SITE}/`))).toBe(true)
  expect(pushLog).toContain(`Checkpoint ${id} ("${checkpoint.name}") was taken before the push`)

  // A newer checkpoint-named version appears (another release, say): a rollback that did not read
  // CHECKPOINT_ID would restore that one (the newest) instead.
  const decoy = await fetch(`${sim.url}/__sim/sites/${SITE}/versions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'ssa~cp~999', content: { files: 'decoy', database: 'decoy' } }),
  })
  expect(decoy.status).toBe(200)

  // A person starts the rollback, in the next stage of the same pipeline.
  const rollback = await gitlabCiLocal(project, yaml, [...tag, 'staging:rollback'], vars)
  const rollbackLog = jobLog(rollback.output, 'staging:rollback')
  expect(rollback.code).toBe(0)
  expect(rollbackLog).toMatch(new RegExp(`Production was restored to version ${id}\\b`))
  const restores = sentTo(sim, 'PUT', `/restore-versions/${id}`)
  expect(restores.map((r) => r.path)).toEqual([`/api/v2/sites/${SITE}/restore-versions/${id}`])
  expect(
    sim.requests.filter((r) => r.method === 'PUT' && r.path.includes('/restore-versions/')),
  ).toHaveLength(1)
  // Production is back as it was before the push.
  expect(production()).toEqual(before)
  expect(production()).not.toEqual(pushed)
  expect(readFileSync(path.join(project.dir, 'site-staging.env'), 'utf8')).toMatch(/^RESULT=succeeded$/m)

  for (const text of [push.output, rollback.output, report]) expect(text).not.toContain(token)
})

// --token-variable NAME (src/cli/ci-env.ts) and switches with a value (src/cli/args.ts): what the GitLab components'
// jobs rely on, tested once here; test/gitlab/ runs the same through gitlab-ci-local.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { parse } from '../../src/cli/args.js'
import { ciEnv } from '../../src/cli/ci-env.js'
import { run } from '../../src/cli/run.js'
import { SIM_SITES, SIM_TOKENS, start, type Simulator } from '../../simulator/server.js'

const TOKEN = SIM_TOKENS.readWrite

describe('ciEnv(argv, env)', () => {
  it('reads the token from the named variable and takes the flag out of the command line', () => {
    const r = ciEnv(['pull', '--token-variable', 'MY_TOKEN', '--site-id', '1'], { MY_TOKEN: TOKEN })
    expect(r).toEqual({
      argv: ['pull', '--site-id', '1'],
      env: { MY_TOKEN: TOKEN, STAGING_API_TOKEN: TOKEN },
    })
    expect(ciEnv(['pull', '--token-variable=MY_TOKEN'], { MY_TOKEN: TOKEN }).env.STAGING_API_TOKEN).toBe(
      TOKEN,
    )
  })

  it('the named variable wins over STAGING_API_TOKEN; without the flag nothing changes', () => {
    const env = { STAGING_API_TOKEN: 'other-token-1', MY_TOKEN: TOKEN }
    expect(ciEnv(['pull', '--token-variable', 'MY_TOKEN'], env).env.STAGING_API_TOKEN).toBe(TOKEN)
    const plain = ciEnv(['pull'], env)
    expect(plain.env).toBe(env)
    expect(plain.error).toBeUndefined()
  })

  it.each([
    [
      'unset',
      {},
      /^the CI\/CD variable MY_TOKEN is not set in this job\. Add the API token in Settings > CI\/CD > Variables as MY_TOKEN, with Masked on/,
    ],
    ['empty', { MY_TOKEN: '' }, /MY_TOKEN is not set in this job/],
    [
      'with a space',
      { MY_TOKEN: `${TOKEN} x` },
      /^the value of MY_TOKEN contains a space or a line break: GitLab cannot mask it/,
    ],
    ['on two lines', { MY_TOKEN: `${TOKEN}\nx` }, /contains a space or a line break/],
    [
      'shorter than 8',
      { MY_TOKEN: 'abc1234' },
      /^the value of MY_TOKEN has fewer than 8 characters: GitLab masks only values of 8 characters or more/,
    ],
    [
      'the name of another variable',
      { MY_TOKEN: 'CI_JOB_ID', CI_JOB_ID: '1' },
      /is the name of another variable of this job: GitLab does not mask such a value/,
    ],
  ])('refuses a value GitLab would not mask: %s', (_name, env, message) => {
    const r = ciEnv(['pull', '--token-variable', 'MY_TOKEN'], env as NodeJS.ProcessEnv)
    expect(r.error).toMatch(message)
    const value = (env as Record<string, string>).MY_TOKEN
    if (value) expect(r.error).not.toContain(value)
  })

  it('exactly 8 characters of the old alphabet pass; other characters only warn', () => {
    expect(ciEnv(['pull', '--token-variable', 'T'], { T: 'abcd1234' }).warning).toBeUndefined()
    expect(ciEnv(['pull', '--token-variable', 'T'], { T: 'a+/=@:.~_-12' }).warning).toBeUndefined()
    const r = ciEnv(['pull', '--token-variable', 'T'], { T: 'abcd|1234!' })
    expect(r.error).toBeUndefined()
    expect(r.warning).toMatch(/^the value of T has characters outside A-Z a-z 0-9/)
    expect(r.warning).not.toContain('abcd|1234!')
  })

  it('a flag without a name, or a name that is not one, is refused', () => {
    expect(ciEnv(['pull', '--token-variable'], {}).error).toBe(
      '--token-variable needs the NAME of a variable.',
    )
    expect(ciEnv(['pull', '--token-variable', '$(id)'], {}).error).toBe(
      '--token-variable: "$(id)" is not a variable name.',
    )
  })

  it('switches with true/false are the switch or its --no- form; other values are for the parser', () => {
    const { values } = parse([
      'pull',
      '--wait=false',
      '--dry-run=true',
      '--wait-for-url=false',
      '--json=true',
    ])
    expect(values).toMatchObject({ wait: false, 'dry-run': true, 'wait-for-url': false, json: true })
    expect(() => parse(['pull', '--wait=maybe'])).toThrow(
      /--wait=maybe: a switch is --wait=true or --wait=false/,
    )
    expect(parse(['pull', '--timeout=true']).values.timeout).toBe('true')
    expect(ciEnv(['pull', '--wait=false'], {}).argv).toEqual(['pull', '--wait=false'])
    // Any case, as on every door (docs/assumptions.md: booleans).
    expect(parse(['pull', '--wait=True', '--dry-run=FALSE']).values).toMatchObject({
      wait: true,
      'dry-run': false,
    })
  })
})

describe('through run(): the CLI as a GitLab job runs it', () => {
  let sim: Simulator
  let dir: string
  beforeAll(async () => {
    sim = await start({ port: 0, durationsMs: { pull: 50 } })
    dir = mkdtempSync(path.join(tmpdir(), 'ci-env-'))
  })
  afterAll(async () => {
    await sim.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  function io() {
    let stdout = ''
    let stderr = ''
    const err = new PassThrough()
    err.on('data', (d: Buffer) => (stderr += d.toString()))
    return {
      io: {
        stdout: { write: (t: string) => (stdout += t) },
        stderr: err as unknown as NodeJS.WriteStream,
        cancelOn: () => new AbortController().signal,
      },
      all: () => stdout + stderr,
    }
  }

  it('a refused variable: exit 2, the reason, a failed dotenv report, nothing sent, the value nowhere', async () => {
    sim.reset()
    const t = io()
    const dotenv = path.join(dir, 'refused.env')
    const code = await run(
      ['pull', '--site-id', String(SIM_SITES.withStaging), '--token-variable', 'SHORT', `--dotenv=${dotenv}`],
      { SHORT: 'abc1234', STAGING_API_URL: sim.apiUrl },
      t.io,
    )
    expect(code).toBe(2)
    expect(t.all()).toMatch(/site-staging: the value of SHORT has fewer than 8 characters/)
    const report = readFileSync(dotenv, 'utf8')
    expect(report).toMatch(/^RESULT=failed$/m)
    expect(report).toMatch(/^MESSAGE=the value of SHORT has fewer than 8 characters/m)
    expect(t.all() + report).not.toContain('abc1234')
    expect(sim.requests).toEqual([])
  })

  it('a usable variable: the pull runs with that token, --wait=false is --no-wait, the token in no output', async () => {
    sim.reset()
    const t = io()
    const dotenv = path.join(dir, 'ok.env')
    const code = await run(
      [
        'pull',
        '--site-id',
        String(SIM_SITES.withStaging),
        '--token-variable',
        'GL_TOKEN',
        '--wait=false',
        `--dotenv=${dotenv}`,
        '--json',
      ],
      { GL_TOKEN: TOKEN, STAGING_API_URL: sim.apiUrl },
      t.io,
    )
    expect(code).toBe(0)
    const report = readFileSync(dotenv, 'utf8')
    expect(report).toMatch(/^RESULT=accepted$/m)
    expect(sim.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
    expect(t.all() + report).not.toContain(TOKEN)
  })
})

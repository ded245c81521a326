/**
 * The CircleCI, Jenkins and Azure Pipelines recipes in docs/cli.md are checked, not just shown
 * (issue 19 §4): each YAML recipe parses and has the shape its CI system reads, the Jenkinsfile is
 * read by a Groovy grammar, and every `site-staging` command in them uses a real operation and the
 * flags that `dist/cli.js --help` lists, run as `npx site-staging@1`, with the token from the CI
 * system's secret store in STAGING_API_TOKEN.
 */
import { beforeAll, describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseDocument } from 'yaml'
import { cliReference, problemsOf, siteStagingCommands, type CliReference } from '../helpers/cli-commands.js'
import { groovyProblems, shSteps } from '../helpers/groovy.js'
import { ROOT } from '../helpers/run-action.js'
import { runCli } from '../helpers/run-cli.js'

const DOC = readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8')

/** The fenced block of `lang` in the `## title` section of docs/cli.md. */
function recipe(title: string, lang: string): string {
  const start = DOC.indexOf(`\n## ${title}\n`)
  expect(start).toBeGreaterThanOrEqual(0)
  const end = DOC.indexOf('\n## ', start + 1)
  const section = DOC.slice(start, end < 0 ? undefined : end)
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```').exec(section)
  if (!block) throw new Error(`no ${lang} block in "## ${title}"`)
  return block[1]! + '\n'
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function loadYaml(text: string): any {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true })
  expect([...doc.errors, ...doc.warnings].map((e) => e.message)).toEqual([])
  return doc.toJS()
}

/** Every string in a parsed YAML tree, with the key path that leads to it. */
function strings(node: unknown, at: string[] = []): { at: string[]; text: string }[] {
  if (typeof node === 'string') return [{ at, text: node }]
  if (Array.isArray(node)) return node.flatMap((v, i) => strings(v, [...at, String(i)]))
  if (node && typeof node === 'object')
    return Object.entries(node).flatMap(([k, v]) => strings(v, [...at, k]))
  return []
}

let ref: CliReference
beforeAll(async () => {
  const r = await runCli(['--help'])
  expect(r.code).toBe(0)
  ref = cliReference(r.stdout)
})

/** Checks every command of a shell text; returns how many there were. */
function checkShell(shell: string): number {
  const commands = siteStagingCommands(shell)
  for (const c of commands) {
    expect(problemsOf(c, ref)).toEqual([])
    expect(c.launcher).toBe('npx site-staging@1')
  }
  return commands.length
}

describe('the reference is what --help says', () => {
  test('operations, flags, values and choices', () => {
    expect([...ref.operations].sort()).toEqual([
      'create',
      'delete',
      'pull',
      'push',
      'reset',
      'rollback',
      'status',
    ])
    for (const f of ['--site-id', '--if-exists', '--no-wait', '--dotenv', '--json', '--timeout'])
      expect(ref.flags).toContain(f)
    expect(ref.takesValue).toContain('--site-id')
    expect(ref.takesValue).not.toContain('--json')
    expect(ref.choices.get('--if-exists')).toEqual(['fail', 'skip', 'recreate'])
    expect(ref.choices.get('--if-missing')).toEqual(['fail', 'skip'])
  })
})

describe('CircleCI', () => {
  const text = recipe('CircleCI', 'yaml')
  const config = loadYaml(text)

  test('a version 2.1 config whose jobs run site-staging in run steps, with the token from a context', () => {
    expect(config.version).toBe(2.1)
    const found = strings(config).filter((s) => /site-staging/.test(s.text))
    expect(found.length).toBeGreaterThanOrEqual(2)
    for (const s of found) {
      // jobs.<job>.steps.<n>.run.command: where CircleCI runs a shell.
      expect(s.at.join('.')).toMatch(/^jobs\.[\w-]+\.steps\.\d+\.run\.command$/)
      expect(checkShell(s.text)).toBeGreaterThan(0)
    }
    // Every workflow job that runs site-staging gets the context that holds STAGING_API_TOKEN.
    const jobsWithCli = new Set(found.map((s) => s.at[1]))
    for (const wf of Object.values(config.workflows) as { jobs: unknown[] }[])
      for (const entry of wf.jobs) {
        const [name, opts] = Object.entries(entry as object)[0] as [string, { context?: string }]
        if (jobsWithCli.has(name)) expect(opts.context).toBe('staging-api')
      }
    // Each job named in a workflow exists, or is an approval.
    for (const wf of Object.values(config.workflows) as { jobs: unknown[] }[])
      for (const entry of wf.jobs) {
        const [name, opts] = Object.entries(entry as object)[0] as [string, { type?: string }]
        if (opts.type !== 'approval') expect(Object.keys(config.jobs)).toContain(name)
      }
    expect(text).not.toMatch(/STAGING_API_TOKEN:/) // never written into the config
  })
})

describe('Azure Pipelines', () => {
  const text = recipe('Azure Pipelines', 'yaml')
  const pipeline = loadYaml(text)

  test('steps that run site-staging are script steps that map the secret into STAGING_API_TOKEN', () => {
    expect(pipeline.trigger).toBe('none')
    expect(pipeline.variables).toEqual([{ group: 'staging-api' }])
    const steps = pipeline.steps as { script?: string; env?: Record<string, string>; task?: string }[]
    const useNode = steps.find((s) => s.task?.startsWith('UseNode@'))
    expect(useNode).toBeDefined()
    const cli = steps.filter((s) => /site-staging/.test(s.script ?? ''))
    expect(cli.length).toBeGreaterThanOrEqual(1)
    for (const step of cli) {
      expect(checkShell(step.script!)).toBeGreaterThan(0)
      // The token, and for the rollback the checkpoint from the run's parameter: nothing else.
      const { STAGING_API_TOKEN, ...rest } = step.env ?? {}
      expect(STAGING_API_TOKEN).toBe('$(STAGING_API_TOKEN)')
      expect(Object.values(rest)).toEqual(
        / rollback /.test(step.script!) ? ['${{ parameters.checkpointId }}'] : [],
      )
    }
    // site-staging appears nowhere but in script steps.
    for (const s of strings(pipeline).filter((x) => /site-staging/.test(x.text)))
      expect(s.at.join('.')).toMatch(/^steps\.\d+\.script$/)
  })
})

describe('Jenkins', () => {
  const text = recipe('Jenkins', 'groovy')

  test('the Jenkinsfile is well-formed for the Groovy grammar', () => {
    expect(groovyProblems(text)).toEqual([])
  })

  test('its sh steps run site-staging with real flags, single-quoted so Groovy expands nothing', () => {
    const steps = shSteps(text)
    const cli = steps.filter((s) => /site-staging/.test(s.script))
    expect(cli.length).toBeGreaterThanOrEqual(1)
    for (const s of cli) {
      expect(s.interpolated).toBe(false)
      expect(checkShell(s.script)).toBeGreaterThan(0)
    }
  })

  test('the operation parameter offers real operations only, and the token comes from credentials()', () => {
    const choice = /choice\(name: 'OPERATION', choices: \[([^\]]*)\]/.exec(text)
    expect(choice).not.toBeNull()
    const values = [...choice![1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!)
    expect(values.length).toBeGreaterThanOrEqual(4)
    for (const v of values) expect(ref.operations).toContain(v)
    expect(text).toMatch(/^\s*STAGING_API_TOKEN\s*=\s*credentials\('staging-api-token'\)$/m)
  })
})

describe('the checks can fail', () => {
  const check = (line: string) => siteStagingCommands(line).flatMap((c) => problemsOf(c, ref))

  test.each([
    ['a renamed flag', 'npx site-staging@1 pull --site 1001', /unknown flag --site/],
    [
      'a mistyped policy flag',
      'npx site-staging@1 pull --site-id 1 --if-exist skip',
      /unknown flag --if-exist/,
    ],
    [
      'a value not among the choices',
      'npx site-staging@1 create --site-id 1 --if-exists maybe',
      /not one of/,
    ],
    ['an unknown operation', 'npx site-staging@1 deploy --site-id 1', /unknown operation deploy/],
    ['no operation', 'npx site-staging@1 --site-id 1', /expected one operation/],
    ['a flag without its value', 'npx site-staging@1 pull --site-id 1 --timeout', /--timeout needs a value/],
    ['a value on a switch', 'npx site-staging@1 pull --site-id 1 --json=yes', /--json takes no value/],
    ['the token as a flag', 'npx site-staging@1 pull --site-id 1 --token abc', /never a flag/],
    ['no site id', 'npx site-staging@1 pull --json > x.json', /no --site-id/],
  ])('%s', (_name, line, message) => {
    expect(check(line).join('\n')).toMatch(message)
  })

  test('a good line has no problems, with quoting, redirections and a variable operation', () => {
    expect(
      check(`npx site-staging@1 "$OPERATION" --site-id "$SITE_ID" --if-exists=skip --json > out.json`),
    ).toEqual([])
    expect(check(`npx site-staging@1 pull \\\n  --site-id 1 --no-wait | tee x`)).toEqual([])
  })

  test('an unbalanced or unclosed Jenkinsfile is reported; a double-quoted sh step is marked interpolated', () => {
    expect(groovyProblems("pipeline { stages { stage('a') { steps { sh 'x' } } }").join()).toMatch(
      /never closed/,
    )
    expect(groovyProblems("pipeline { sh 'x }").length).toBeGreaterThan(0)
    expect(groovyProblems("pipeline { sh 'x' ) }").join()).toMatch(/does not close/)
    const [step] = shSteps('pipeline { steps { sh "npx site-staging@1 pull --site-id ${SITE}" } }')
    expect(step!.interpolated).toBe(true)
    // A commented-out step is not a step.
    expect(shSteps("steps {\n  // sh 'npx site-staging@1 pull --bogus'\n}")).toEqual([])
  })
})

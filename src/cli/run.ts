// The `site-staging` command: argv + environment -> parseConfig -> runAll -> stderr / --json /
// --dotenv -> exit code. Nothing happens when this module is imported: src/cli/index.ts (the bundle's
// entry, dist/cli.js) calls run() and exits, as src/index.ts does for the action. Reference: README.md.
import { writeFileSync } from 'node:fs'
import pkg from '../../package.json' with { type: 'json' }
import { cancelOnSignals } from '../cancel.js'
import { realClock } from '../clock.js'
import { EXIT, USAGE, UsageError, describeInputError, parse, rawInputs, type Parsed } from './args.js'
import { ciEnv } from './ci-env.js'
import { dotenvFor, envFileText } from './dotenv.js'
import { LiveLine } from './progress.js'
import { InputError, parseConfig, type RawInputs } from '../inputs/index.js'
import { assembleReport } from '../report/assembly.js'
import { failedOutputs, publicResult, type Outputs } from '../report/outputs.js'
import { Redactor } from '../secrets/redactor.js'
import type { RunDeps } from '../staging/operations.js'
import type { Logger, ProgressUpdate, Result } from '../types.js'

/** Where the CLI writes, and how it learns of a cancellation. */
export interface CliIo {
  stdout: { write(text: string): unknown }
  /** Progress and the log; a terminal gets the live line. */
  stderr: NodeJS.WriteStream
  /** Starts listening for cancellation; default: SIGINT/SIGTERM (src/cancel.ts). */
  cancelOn?: (say: (message: string) => void, exitCode: number) => AbortSignal
}

/**
 * Runs the CLI once; resolves with its exit code and never exits the process. `seams`: tests run the
 * same command in virtual time (a clock, the core's transport and the site's own GET).
 */
export async function run(
  cliArgv: string[],
  cliEnv: NodeJS.ProcessEnv,
  io: CliIo,
  seams: Pick<RunDeps, 'clock' | 'transport' | 'siteGet'> = {},
): Promise<number> {
  // The token (also one named by --token-variable) is registered before anything else runs: every
  // line written below goes through scrub.
  const ci = ciEnv(cliArgv, cliEnv)
  const { argv, env } = ci
  const redactor = new Redactor()
  redactor.add(cliEnv.STAGING_API_TOKEN)
  redactor.add(env.STAGING_API_TOKEN)
  // The one writer of the CLI: every line on stderr is inert (one line, no escape sequence or control
  // character from a server, nothing a CI system reads as a command) and without secrets. On a
  // terminal, a live progress line sits below the log and is redrawn after each line.
  const live = new LiveLine(io.stderr, env)
  const err = (line: string): void => live.print(redactor.inert(line))
  const out = (text: string): void => void io.stdout.write(redactor.scrub(text) + '\n')
  const writeFile = (file: string, text: string): void =>
    writeFileSync(file, redactor.scrub(text), { mode: 0o600 })
  try {
    return await main()
  } catch (e) {
    err(`site-staging: unexpected error: ${(e as Error)?.message ?? String(e)}`)
    return EXIT.failed
  }

  async function main(): Promise<number> {
    let parsed: Parsed
    let raw: RawInputs
    try {
      parsed = parse(argv)
      if (parsed.values.help) {
        out(USAGE.trimEnd())
        return EXIT.ok
      }
      if (parsed.values.version) {
        out(pkg.version)
        return EXIT.ok
      }
      raw = rawInputs(parsed, env)
    } catch (e) {
      if (!(e instanceof UsageError)) throw e
      err(`site-staging: ${e.message}`)
      err('Run site-staging --help for usage.')
      return EXIT.usage
    }
    const { values } = parsed
    // The outputs files asked for: --dotenv for GitLab's parser, --shell-env for `source` (dotenv.ts).
    const files: OutputsFile[] = []
    if (values.dotenv !== undefined) files.push({ flag: '--dotenv', path: values.dotenv, render: dotenvFor })
    if (values['shell-env'] !== undefined)
      files.push({
        flag: '--shell-env',
        path: values['shell-env'],
        render: (o) => ({ text: envFileText(o), note: null }),
      })

    // Empty each file first: a run that stops early never leaves the last run's values behind.
    for (const f of files) {
      try {
        writeFile(f.path, '')
      } catch (e) {
        err(`site-staging: ${f.flag}: cannot write ${f.path}: ${(e as Error).message}`)
        return EXIT.usage
      }
    }

    // --token-variable NAME that cannot be used (src/cli/ci-env.ts): refused like an input.
    if (ci.error !== undefined) {
      err(`site-staging: ${ci.error}`)
      err('No request was sent.')
      for (const f of files) writeFile(f.path, f.render(failedOutputs(ci.error), []).text)
      return EXIT.usage
    }
    for (const w of ci.warnings) err(`site-staging: warning: ${w}`)

    let config
    try {
      config = parseConfig(raw)
    } catch (e) {
      if (!(e instanceof InputError)) throw e
      const message = describeInputError(e)
      err(`site-staging: ${message}`)
      err('No request was sent. Run site-staging --help for usage.')
      for (const f of files) writeFile(f.path, f.render(failedOutputs(message), []).text)
      return EXIT.usage
    }

    const logger: Logger = {
      info: (m) => err(m),
      warn: (m) => err(`warning: ${m}`),
      debug: (m) => {
        if (values.verbose) err(`debug: ${m}`)
      },
      ...(live.enabled ? { progress: (u: ProgressUpdate) => live.update(u) } : {}),
    }

    // Cancellation as in the action: stop waiting at once, report, exit 1.
    const signal = (io.cancelOn ?? cancelOnSignals)(err, EXIT.failed)

    const clock = seams.clock ?? realClock
    const started = clock.now()
    // The staging and HTTP stack loads only for a run (issue 26 §6): not for --help, --version or an input error.
    const { runAll } = await import(/* webpackMode: "eager" */ '../staging/batch.js')
    const results = await runAll(config, { ...seams, logger, redactor, signal, door: 'cli' })
    const report = assembleReport(results, clock.now() - started)

    for (const w of report.warnings) err(`warning: ${w}`)
    for (const e of report.errors) err(`error: ${e.title}: ${e.hint}`)
    for (const s of report.stagingUrls) err(`Staging URL${s.siteId ? ` (site ${s.siteId})` : ''}: ${s.url}`)
    live.stop()
    err(report.finalLine)

    let code: number = report.failed ? EXIT.failed : EXIT.ok
    if (values.json) {
      const json = results.length === 1 ? publicResult(results[0]!) : results.map(publicResult)
      out(JSON.stringify(json, null, 2))
    }
    for (const f of files) {
      const { text, note } = f.render(report.outputs, results)
      try {
        writeFile(f.path, text)
        if (note) err(`warning: ${note}`)
      } catch (e) {
        err(`error: could not write the ${f.flag} file ${f.path}: ${(e as Error).message}`)
        code = EXIT.failed
      }
    }
    return code
  }
}

/** A file the outputs are written to, and how. */
interface OutputsFile {
  flag: '--dotenv' | '--shell-env'
  path: string
  render: (outputs: Outputs, results: Result[]) => { text: string; note: string | null }
}

// `--token-variable NAME`, for the GitLab components' jobs (one `site-staging` command; docs/gitlab.md):
// the API token is read from the CI/CD variable NAME, and refused when GitLab could not mask it in the
// job's log (GitLab masks a value only if it is one line without spaces and 8 characters or more;
// older versions also only the Base64 alphabet and @ : . ~). run.ts calls ciEnv() first, before
// anything is written, and registers the token it found.
import { echoed } from '../secrets/urls.js'

/** Characters every GitLab version masks (its first rule: Base64 and `@ : . ~`, plus `_ -`). */
const OLD_MASKABLE = /^[A-Za-z0-9+/=@:.~_-]*$/
const FLAG = '--token-variable'

export interface CiEnv {
  /** The command line without --token-variable. */
  argv: string[]
  /** The environment, with STAGING_API_TOKEN taken from the named variable when there is one. */
  env: NodeJS.ProcessEnv
  /** What may go wrong with the named variable's value (GitLab may not mask it). */
  warning?: string
  /** Why the named variable cannot be used (a usage error: nothing may be sent). */
  error?: string
}

export function ciEnv(argv: string[], env: NodeJS.ProcessEnv): CiEnv {
  const rest: string[] = []
  let name: string | undefined
  let missingName = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--') {
      rest.push(...argv.slice(i))
      break
    }
    if (a === FLAG) {
      name = argv[++i]
      missingName ||= name === undefined
    } else if (a.startsWith(`${FLAG}=`)) name = a.slice(FLAG.length + 1)
    else rest.push(a)
  }
  if (missingName) return { argv: rest, env, error: `${FLAG} needs the NAME of a variable.` }
  if (name === undefined) return { argv: rest, env }
  const { value, ...said } = tokenFrom(name, env)
  return { argv: rest, env: { ...env, STAGING_API_TOKEN: value ?? '' }, ...said }
}

/** The token in the variable `name`, or why it cannot be used; never the value in a message. */
function tokenFrom(
  name: string,
  env: NodeJS.ProcessEnv,
): { value?: string; warning?: string; error?: string } {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return { error: `${FLAG}: ${JSON.stringify(echoed(name, 40))} is not a variable name.` }
  const value = env[name] ?? ''
  const refuse = (error: string) => ({ value, error })
  if (value === '')
    return refuse(
      `the CI/CD variable ${name} is not set in this job. Add the API token in Settings > CI/CD > ` +
        `Variables as ${name}, with Masked on (and Protected, if only protected branches and tags ` +
        'may use it: a protected variable does not reach the pipelines of other branches).',
    )
  if (/\s/.test(value))
    return refuse(
      `the value of ${name} contains a space or a line break: GitLab cannot mask it, so it could ` +
        'show in this log. Store the token alone, on one line, as a masked variable.',
    )
  if (value.length < 8)
    return refuse(
      `the value of ${name} has fewer than 8 characters: GitLab masks only values of 8 characters ` +
        'or more, so it would show in this log. Check that the variable holds the whole token, masked.',
    )
  if (Object.hasOwn(env, value))
    return refuse(
      `the value of ${name} is the name of another variable of this job: GitLab does not mask such ` +
        'a value. Check that the variable holds the token itself, masked.',
    )
  if (OLD_MASKABLE.test(value)) return { value }
  return {
    value,
    warning:
      `the value of ${name} has characters outside A-Z a-z 0-9 + / = @ : . ~ _ -; GitLab versions ` +
      'that mask only those cannot mask it. Make sure the variable is masked (Settings > CI/CD > Variables).',
  }
}

/**
 * Reading `site-staging` command lines out of CI recipes (shell text from YAML or a Jenkinsfile)
 * and checking them against the CLI's own `--help`: the operation is real, every flag exists, a
 * flag that takes a value has one, and a value with listed choices is one of them. A renamed flag
 * in src/cli/index.ts then fails the recipe tests instead of a user's pipeline.
 */

/** What `site-staging --help` says the command takes. */
export interface CliReference {
  operations: Set<string>
  /** Every long flag (`--site-id`), with the `--no-` forms. */
  flags: Set<string>
  /** Flags that take a value (`--site-id ID`). */
  takesValue: Set<string>
  /** Flags whose value is one of a list (`--if-exists fail|skip|recreate`). */
  choices: Map<string, string[]>
}

export function cliReference(help: string): CliReference {
  const usage = /^Usage: site-staging <([a-z|]+)>/m.exec(help)
  if (!usage) throw new Error('no usage line in --help')
  const operations = new Set(usage[1]!.split('|'))
  // "pull (refresh from production; "reset" is another name)": the alias is an operation too.
  for (const [, alias] of help.matchAll(/"([a-z]+)" is\s+another name/g)) operations.add(alias!)
  const flags = new Set<string>()
  const takesValue = new Set<string>()
  const choices = new Map<string, string[]>()
  for (const line of help.split('\n')) {
    const m = /^\s{2}(-\w, )?(--[a-z][a-z-]*)(, (--no-[a-z-]+))?( ([A-Za-z|]+))?(\s|$)/.exec(line)
    if (!m) continue
    flags.add(m[2]!)
    if (m[4]) flags.add(m[4])
    const value = m[6]
    if (value) {
      takesValue.add(m[2]!)
      if (value.includes('|')) choices.set(m[2]!, value.split('|'))
    }
  }
  return { operations, flags, takesValue, choices }
}

/** One `site-staging` invocation found in shell text. */
export interface CliCommand {
  /** How it was started: `npx site-staging@1`, `site-staging`, `node site-staging.mjs`. */
  launcher: string
  /** The words after the command, quotes removed, up to the first shell operator. */
  args: string[]
  /** The shell line it came from, for messages. */
  line: string
}

const OPERATORS = new Set(['|', '||', '&&', ';', '&', '>', '>>', '<', '2>', '2>&1', '1>', '&>'])

/**
 * Shell words of one line: '...' and "..." quoting (quotes removed, but a word that was quoted keeps
 * a marker so `"$OPERATION"` is known to be one word), and operators as words of their own.
 */
export function shellWords(line: string): string[] {
  const words: string[] = []
  let i = 0
  while (i < line.length) {
    const c = line[i]!
    if (/\s/.test(c)) {
      i++
      continue
    }
    if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) break // a comment
    const op = /^(2>&1|&>|2>|1>|>>|&&|\|\||[|;&<>])/.exec(line.slice(i))
    if (op) {
      words.push(op[1]!)
      i += op[1]!.length
      continue
    }
    let word = ''
    while (i < line.length && !/[\s|;&<>]/.test(line[i]!)) {
      const q = line[i]!
      if (q === "'" || q === '"') {
        const end = line.indexOf(q, i + 1)
        if (end < 0) throw new Error(`unclosed ${q} in: ${line}`)
        word += line.slice(i + 1, end)
        i = end + 1
      } else if (q === '\\' && i + 1 < line.length) {
        word += line[i + 1]
        i += 2
      } else {
        word += q
        i++
      }
    }
    words.push(word)
  }
  return words
}

/**
 * Every `site-staging` command in a shell text. Backslash-newline continuations are joined first;
 * the command is the word `site-staging` (optionally `@version`) or `site-staging.mjs` after `node`.
 */
export function siteStagingCommands(shell: string): CliCommand[] {
  const commands: CliCommand[] = []
  for (const line of shell.replace(/\\\n/g, ' ').split('\n')) {
    if (!/site-staging/.test(line)) continue
    const words = shellWords(line)
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!
      if (!/^site-staging(@[\w.^~-]+)?$/.test(w) && !/^site-staging\.m?js$/.test(w)) continue
      const prev = words[i - 1]
      const launcher = prev === 'npx' || prev === 'node' ? `${prev} ${w}` : w
      const args: string[] = []
      for (let j = i + 1; j < words.length && !OPERATORS.has(words[j]!); j++) args.push(words[j]!)
      commands.push({ launcher, args, line: line.trim() })
    }
  }
  return commands
}

/** What is wrong with one command, as readable sentences (empty when it is fine). */
export function problemsOf(command: CliCommand, ref: CliReference): string[] {
  const problems: string[] = []
  const say = (what: string) => problems.push(`${what} in: ${command.line}`)
  const positionals: string[] = []
  const args = command.args
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (!a.startsWith('-')) {
      positionals.push(a)
      continue
    }
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a]
    if (/^--?(api-?)?token$/i.test(flag!)) {
      say(`the token is never a flag (${flag})`)
      continue
    }
    if (!ref.flags.has(flag!) && !['-h', '-V'].includes(flag!)) {
      say(`unknown flag ${flag}`)
      continue
    }
    if (!ref.takesValue.has(flag!)) {
      if (inline !== undefined) say(`${flag} takes no value`)
      continue
    }
    const value = inline ?? args[++i]
    if (value === undefined || (value.startsWith('--') && inline === undefined)) {
      say(`${flag} needs a value`)
      continue
    }
    const allowed = ref.choices.get(flag!)
    if (allowed && !value.startsWith('$') && !allowed.includes(value))
      say(`${flag} ${value} is not one of ${allowed.join('|')}`)
  }
  if (args.some((a) => ['--help', '-h', '--version', '-V'].includes(a))) return problems
  if (positionals.length !== 1) say(`expected one operation, got ${JSON.stringify(positionals)}`)
  else if (!positionals[0]!.startsWith('$') && !ref.operations.has(positionals[0]!))
    say(`unknown operation ${positionals[0]}`)
  if (!args.includes('--site-id') && !args.some((a) => a.startsWith('--site-id='))) say('no --site-id')
  return problems
}

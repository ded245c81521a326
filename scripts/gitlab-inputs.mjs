// The docs' tables of inputs, generated from the files users copy from (which
// test/unit/input-table.test.ts checks against the one table of inputs, src/inputs/table.ts):
// - README.md: each GitLab component's inputs, from its `spec:` header (templates/<name>.yml or
//   templates/<name>/template.yml), between <!-- gitlab-inputs:<name>:begin --> and ...:end -->;
// - docs/bitbucket.md: the pipe's variables, from pipe/pipe.yml, between
//   <!-- pipe-variables:begin --> and <!-- pipe-variables:end -->.
//   node scripts/gitlab-inputs.mjs --write    rewrite the tables (npm run docs:gitlab)
//   node scripts/gitlab-inputs.mjs --check    exit 1 when a table differs from its spec
//   --root DIR                                 another checkout (tests use a copy)
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parse, parseAllDocuments } from 'yaml'

const args = process.argv.slice(2)
const rootAt = args.indexOf('--root')
const root =
  rootAt >= 0
    ? path.resolve(args[rootAt + 1])
    : path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const mode = args.includes('--write') ? 'write' : args.includes('--check') ? 'check' : null
if (!mode) {
  console.error('Usage: node scripts/gitlab-inputs.mjs --write|--check [--root DIR]')
  process.exit(2)
}

/** Each component: [name, file]. */
function components() {
  const dir = path.join(root, 'templates')
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      if (f.endsWith('.yml')) return [[f.slice(0, -4), path.join(dir, f)]]
      const nested = path.join(dir, f, 'template.yml')
      return existsSync(nested) ? [[f, nested]] : []
    })
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\n/g, ' ')
const code = (text) => '`' + String(text).replace(/\|/g, '\\|') + '`'

function table(file) {
  const [header] = parseAllDocuments(readFileSync(file, 'utf8'))
  const inputs = header.toJS().spec.inputs
  const rows = Object.entries(inputs).map(([name, spec]) => {
    const type = spec.type ?? 'string'
    const required = !('default' in spec)
    const def = required
      ? '**required**'
      : type === 'array'
        ? // A long list (the job's rules) would widen the table past the page: its description says
          // it in words, and the template holds it exactly.
          JSON.stringify(spec.default).length > 40
          ? `see the description (exact: \`templates/${path.relative(path.join(root, 'templates'), file)}\`)`
          : code(JSON.stringify(spec.default))
        : spec.default === ''
          ? '(empty)'
          : code(spec.default)
    const allowed = spec.options
      ? spec.options.map(code).join(', ')
      : spec.regex
        ? `matches ${code(spec.regex)}`
        : ''
    return `| \`${name}\` | ${type} | ${def} | ${allowed} | ${cell(spec.description ?? '')} |`
  })
  return ['| Input | Type | Default | Allowed | Description |', '|---|---|---|---|---|', ...rows].join('\n')
}

/** The pipe's variables: name, whether required, default, description. */
function pipeTable() {
  const pipe = parse(readFileSync(path.join(root, 'pipe/pipe.yml'), 'utf8'))
  const rows = pipe.variables.map((v) => {
    const def = v.required
      ? '**required**'
      : v.default === undefined || v.default === ''
        ? '(empty)'
        : code(v.default)
    return `| \`${v.name}\` | ${def} | ${cell(v.description ?? '')} |`
  })
  return ['| Variable | Default | What |', '|---|---|---|', ...rows].join('\n')
}

const stale = []
/** `file` with the text between the markers `name`:begin and :end replaced by `generated`. */
function regenerate(file, name, generated, what) {
  const full = path.join(root, file)
  const text = readFileSync(full, 'utf8')
  const begin = `<!-- ${name}:begin -->`
  const end = `<!-- ${name}:end -->`
  const from = text.indexOf(begin)
  const to = text.indexOf(end)
  if (from < 0 || to < from) {
    stale.push(`${file} has no ${begin} ... ${end} section for ${what}`)
    return
  }
  const section = `${begin}\n${generated}\n${end}`
  if (text.slice(from, to + end.length) === section) return
  stale.push(`${file}: the table of ${what} differs from it`)
  if (mode === 'write') writeFileSync(full, text.slice(0, from) + section + text.slice(to + end.length))
}

for (const [name, file] of components())
  regenerate(
    'README.md',
    `gitlab-inputs:${name}`,
    table(file),
    `templates/${path.relative(path.join(root, 'templates'), file)}`,
  )
regenerate('docs/bitbucket.md', 'pipe-variables', pipeTable(), 'pipe/pipe.yml')
if (mode === 'write') {
  for (const line of stale) console.log(`updated: ${line}`)
  if (stale.some((l) => l.includes('has no'))) process.exit(1)
} else if (stale.length) {
  for (const line of stale) console.error(line)
  console.error('Run npm run docs:gitlab to regenerate the tables.')
  process.exit(1)
} else {
  console.log(
    `The inputs tables of ${components().length} components and the pipe's variables match their files.`,
  )
}

// The README's tables of GitLab component inputs, generated from each component's `spec:` header
// (templates/<name>.yml or templates/<name>/template.yml), between the markers
//   <!-- gitlab-inputs:<name>:begin --> ... <!-- gitlab-inputs:<name>:end -->
//   node scripts/gitlab-inputs.mjs --write    rewrite the tables (npm run docs:gitlab)
//   node scripts/gitlab-inputs.mjs --check    exit 1 when a table differs from its spec
//   --root DIR                                 another checkout (tests use a copy)
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseAllDocuments } from 'yaml'

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

const readmePath = path.join(root, 'README.md')
let readme = readFileSync(readmePath, 'utf8')
const stale = []
for (const [name, file] of components()) {
  const begin = `<!-- gitlab-inputs:${name}:begin -->`
  const end = `<!-- gitlab-inputs:${name}:end -->`
  const from = readme.indexOf(begin)
  const to = readme.indexOf(end)
  if (from < 0 || to < from) {
    stale.push(
      `README.md has no ${begin} ... ${end} section for templates/${path.relative(path.join(root, 'templates'), file)}`,
    )
    continue
  }
  const generated = `${begin}\n${table(file)}\n${end}`
  if (readme.slice(from, to + end.length) !== generated) {
    stale.push(`README.md: the inputs table of the ${name} component differs from its spec`)
    readme = readme.slice(0, from) + generated + readme.slice(to + end.length)
  }
}
if (mode === 'write') {
  writeFileSync(readmePath, readme)
  for (const line of stale) console.log(`updated: ${line}`)
  if (stale.some((l) => l.includes('has no'))) process.exit(1)
} else if (stale.length) {
  for (const line of stale) console.error(line)
  console.error('Run npm run docs:gitlab to regenerate the tables.')
  process.exit(1)
} else {
  console.log(`README.md: the inputs tables of ${components().length} components match their specs.`)
}

#!/usr/bin/env node
// A pure-Node stand-in for the part of rsync that gitlab-ci-local uses, so that the GitLab tests run
// on a machine with only Node and git (test/helpers/gitlab.ts puts it on the PATH of gitlab-ci-local
// as `rsync`). gitlab-ci-local runs, through bash:
//   rsync -a --delete-excluded --delete --exclude-from=F [--exclude-from=G] --exclude .git/lfs
//         --exclude STATE/ ./ STATE/builds/NAME/          (a copy of the project, for image jobs)
//   rsync --exclude '.gitlab-ci-local/**' -rRa [--exclude P] --files-from=LIST . DEST/. (artifacts)
//   rsync -Ra ./FILE DEST/.gitlab-ci-reports/dotenv/.     (a dotenv report)
//   rsync -a [--exclude=/.gitlab-ci-reports/] SRC/. DEST  (artifacts back into the project)
// Supported: -a (recursive, permissions, times, symbolic links), -r, -R, --delete,
// --delete-excluded, --exclude, --exclude-from, --files-from, several sources, and rsync's exclude
// patterns (a leading / anchors at the transfer's root, a trailing / matches directories only, *, **
// and ? as rsync reads them). Anything else is refused (exit 1), so a new use is noticed, not
// half-done. test/gitlab/rsync.test.ts checks each form above.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
} from 'node:fs'
import path from 'node:path'

const fail = (message, code = 1) => {
  process.stderr.write(`rsync (stand-in): ${message}\n`)
  process.exit(code)
}

const opts = { recursive: false, relative: false, delete: false, deleteExcluded: false }
const excludes = []
let filesFrom = null
const positional = []
const args = process.argv.slice(2)
for (let i = 0; i < args.length; i++) {
  const a = args[i]
  const value = (name) =>
    a.includes('=') ? a.slice(a.indexOf('=') + 1) : (args[++i] ?? fail(`${name} needs a value`))
  if (a === '--delete') opts.delete = true
  else if (a === '--delete-excluded') opts.deleteExcluded = opts.delete = true
  else if (a === '--exclude' || a.startsWith('--exclude=')) excludes.push(value('--exclude'))
  else if (a === '--exclude-from' || a.startsWith('--exclude-from=')) {
    for (const line of readFileSync(value('--exclude-from'), 'utf8').split('\n'))
      if (line.trim() !== '' && !/^[#;]/.test(line)) excludes.push(line.replace(/\r$/, ''))
  } else if (a === '--files-from' || a.startsWith('--files-from=')) filesFrom = value('--files-from')
  else if (/^-[arR]+$/.test(a)) {
    if (/[ar]/.test(a)) opts.recursive = true
    if (a.includes('R')) opts.relative = true
  } else if (a.startsWith('-')) fail(`option ${a} is not supported`)
  else positional.push(a)
}
if (positional.length < 2) fail('give at least one source and a destination')
const dest = positional.pop()
if (filesFrom !== null) opts.relative = true

/** rsync's pattern -> a RegExp over a whole path relative to the transfer's root. */
function compile(pattern) {
  const dirOnly = pattern.endsWith('/')
  let p = dirOnly ? pattern.slice(0, -1) : pattern
  const anchored = p.startsWith('/')
  if (anchored) p = p.slice(1)
  const body = p
    .split(/(\*\*|\*|\?)/)
    .map((part) =>
      part === '**'
        ? '.*'
        : part === '*'
          ? '[^/]*'
          : part === '?'
            ? '[^/]'
            : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('')
  // Unanchored: the pattern may match the path's last components at any depth.
  return { re: new RegExp(`${anchored ? '^' : '(^|/)'}${body}$`), dirOnly }
}
const rules = excludes.map(compile)
const excluded = (rel, isDir) => rules.some((r) => (!r.dirOnly || isDir) && r.re.test(rel))

/** Relative paths (from the transfer's root) that this run wrote, for --delete. */
const kept = new Set()

function copyEntry(from, to, rel) {
  const st = lstatSync(from)
  if (excluded(rel, st.isDirectory())) return
  kept.add(rel)
  mkdirSync(path.dirname(to), { recursive: true })
  if (st.isSymbolicLink()) {
    rmSync(to, { force: true, recursive: true })
    symlinkSync(readlinkSync(from), to)
    return
  }
  if (st.isDirectory()) {
    if (existsSync(to) && !lstatSync(to).isDirectory()) rmSync(to, { force: true })
    mkdirSync(to, { recursive: true })
    if (opts.recursive)
      for (const name of readdirSync(from))
        copyEntry(path.join(from, name), path.join(to, name), `${rel}/${name}`)
    chmodSync(to, st.mode & 0o7777)
    utimesSync(to, st.atime, st.mtime)
    return
  }
  if (existsSync(to) && lstatSync(to).isDirectory()) rmSync(to, { recursive: true, force: true })
  copyFileSync(from, to)
  chmodSync(to, st.mode & 0o7777)
  utimesSync(to, st.atime, st.mtime)
}

/** Removes what the destination holds beyond what was sent (--delete), excluded files only with --delete-excluded. */
function prune(dir, rel) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    const r = rel ? `${rel}/${name}` : name
    const isDir = lstatSync(full).isDirectory()
    if (kept.has(r)) {
      if (isDir && !lstatSync(full).isSymbolicLink()) prune(full, r)
    } else if (opts.deleteExcluded || !excluded(r, isDir)) rmSync(full, { recursive: true, force: true })
  }
}

/** Where a source lands: `dir/.` or `dir/` -> its contents; `dir` -> dest/dir; with -R the path as given. */
function send(source, base) {
  const from = path.resolve(base, source)
  if (!existsSync(from) && !isLink(from)) {
    process.stderr.write(`rsync: link_stat "${from}" failed: No such file or directory (2)\n`)
    return false
  }
  if (opts.relative) {
    const marked = source.split('/./')
    const relPath = path
      .normalize(marked.length > 1 ? marked.slice(1).join('/') : source)
      .replace(/^(\.\/)+/, '')
    if (relPath === '.' || relPath === '') {
      for (const name of readdirSync(from)) copyEntry(path.join(from, name), path.join(dest, name), name)
      return true
    }
    // The directories on the way are created; only the last component is sent (as rsync -R does).
    copyEntry(from, path.join(dest, relPath), relPath)
    return true
  }
  const contents = source.endsWith('/') || source.endsWith('/.') || source === '.'
  if (contents && lstatSync(from).isDirectory()) {
    mkdirSync(dest, { recursive: true })
    for (const name of readdirSync(from)) copyEntry(path.join(from, name), path.join(dest, name), name)
    if (opts.delete) prune(dest, '')
    return true
  }
  const name = path.basename(from)
  const intoDir = dest.endsWith('/') || (existsSync(dest) && lstatSync(dest).isDirectory())
  copyEntry(from, intoDir ? path.join(dest, name) : dest, name)
  return true
}

function isLink(p) {
  try {
    return lstatSync(p).isSymbolicLink()
  } catch {
    return false
  }
}

let ok = true
if (filesFrom !== null) {
  const base = positional[0]
  if (positional.length !== 1) fail('--files-from takes one source directory')
  const list = readFileSync(filesFrom, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
  mkdirSync(dest, { recursive: true })
  for (const entry of list) ok = send(entry.replace(/^\.\//, './'), base) && ok
} else {
  for (const source of positional) ok = send(source, process.cwd()) && ok
}
process.exit(ok ? 0 : 23)

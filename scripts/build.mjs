// Builds the committed bundles with @vercel/ncc's Node API:
//   dist/index.js      the action (action.yml runs it)
//   dist/cli.js        the `site-staging` command for other CI systems
//   dist/simulator.js  the reference v2 API simulator (demo, tests, benchmarks)
//   dist/NNN.index.js  chunks the action loads only when needed (the PR comment)
// Each bundle is one self-contained ES module file.
//
// TypeScript runs once: `tsc -p tsconfig.json` checks the types of the whole project (src/,
// simulator/, test/, scripts/, bench/: what `npm run typecheck` checks) and writes its JavaScript
// to a directory of this build's own under .build/; ncc bundles that JavaScript. (ncc's own
// TypeScript loader would type-check each of the three bundles again, about 10 s of CPU each.)
// A type error anywhere fails the build and leaves dist/ as it was. ncc runs in the emitted
// directory, so the bundles' module ids do not depend on its name or on where the checkout is:
// two builds of one commit write the same bytes.
import ncc from '@vercel/ncc'
import { spawnSync } from 'node:child_process'
import { mkdir, rm, writeFile, readdir } from 'node:fs/promises'
import { existsSync, mkdtempSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const entries = [
  { src: 'src/index.ts', out: 'index.js' },
  { src: 'src/cli/index.ts', out: 'cli.js', shebang: true },
  { src: 'simulator/main.ts', out: 'simulator.js', shebang: true },
]

await mkdir(path.join(root, '.build'), { recursive: true })
const emitted = mkdtempSync(path.join(root, '.build', 'js-'))
let built
try {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc')
  const args = ['-p', 'tsconfig.json', '--noEmit', 'false', '--rootDir', '.', '--outDir', emitted]
  const checked = spawnSync(process.execPath, [tsc, ...args], { cwd: root, stdio: 'inherit' })
  if (checked.status === 0) {
    process.chdir(emitted)
    built = await bundle()
  } else
    console.error(`build: type errors (tsc exit ${checked.status ?? checked.signal}); dist/ left as it was`)
} finally {
  process.chdir(root)
  await rm(emitted, { recursive: true, force: true })
}
if (!built) process.exit(1)

const dist = path.join(root, 'dist')
await mkdir(dist, { recursive: true })
const keep = new Set(built.map((b) => b.name))
for (const name of await readdir(dist))
  if (!keep.has(name)) await rm(path.join(dist, name), { recursive: true, force: true })
for (const b of built) await writeFile(path.join(dist, b.name), b.text, { mode: b.shebang ? 0o755 : 0o644 })
console.log(`built: ${built.map((b) => b.name).join(', ')}`)

/** Every bundle, in memory: a failed build leaves dist/ as it was. */
async function bundle() {
  const built = []
  for (const entry of entries) {
    if (!existsSync(path.join(root, entry.src))) continue
    const { code, assets } = await ncc(path.join(emitted, entry.src.replace(/\.ts$/, '.js')), {
      minify: false,
      sourceMap: false,
      license: '',
      quiet: true,
      target: 'es2023',
      // One build from a fresh clone: ncc's cache (~40 MiB per bundle) would only cost its writing.
      cache: false,
    })
    // Lazily loaded chunks (e.g. the PR comment's Octokit) sit beside the bundle that imports them.
    for (const [name, asset] of Object.entries(assets ?? {})) {
      if (name === 'package.json') continue
      if (!/^\d+\.index\.js$/.test(name)) throw new Error(`${entry.src}: unexpected bundle asset ${name}`)
      const text = String(asset.source)
      const twin = built.find((b) => b.name === name)
      if (twin && twin.text !== text)
        throw new Error(`${entry.src}: chunk ${name} clashes with another bundle's`)
      if (!twin) built.push({ name, text })
    }
    const body = unparsedUntilUsed(lazyUndici(code.replace(/^#!.*\n/, ''), entry.out), entry.out)
    built.push({
      name: entry.out,
      text: (entry.shebang ? '#!/usr/bin/env node\n' : '') + body,
      shebang: entry.shebang,
    })
  }
  built.push({ name: 'package.json', text: '{ "type": "module" }\n' })
  return built
}

/**
 * `@actions/http-client` imports undici when it loads, for one class (`ProxyAgent`) that only
 * Octokit's fetch through a proxy uses (the pull-request comment and deployments, loaded lazily).
 * Evaluating undici costs about 18 ms of every cold start, so its one binding in a bundle becomes a
 * lazy one: undici loads the first time something asks for it. If a dependency update changes that
 * binding, the build says so and leaves the bundle as it is (correct, just slower to start).
 */
function lazyUndici(code, name) {
  const binding = /^var undici = __nccwpck_require__\((\d+)\);$/gm
  const found = [...code.matchAll(binding)]
  if (found.length === 0) return code
  if (found.length > 1) {
    console.warn(`build: ${name}: ${found.length} undici bindings, expected one; left as they are`)
    return code
  }
  const id = found[0][1]
  return code.replace(
    binding,
    `let undici$loaded; const undici = new Proxy({}, { get: (_, key) => (undici$loaded ??= __nccwpck_require__(${id}))[key] });`,
  )
}

/**
 * The modules only a late start reaches stay in the bundle as text, compiled the first time one is
 * required: those only the lazy undici binding reaches (undici's ~900 KiB, only needed for
 * Octokit's fetch through a proxy), and those only an eager dynamic `import()` reaches (the CLI's
 * staging and HTTP stack, loaded for a run). A start that never asks for them (`--version`,
 * `--help`, an input error; a dry run and every run without the PR comment never ask for undici)
 * does not even parse them. Their text sees the bundle's scope only through the two names webpack
 * gives it (the external require and `import.meta`), passed in. If the bundle's layout is not the
 * one expected, the build says so and leaves it as it is (correct, just slower to start).
 */
function unparsedUntilUsed(code, name) {
  const lazy = /__nccwpck_require__\((\d+)\)\)\[key\] \}\);/.exec(code)
  const open = 'var __webpack_modules__ = ({\n'
  const close = '\n/******/ });\n'
  const start = code.indexOf(open)
  const end = code.indexOf(close, start)
  if (start < 0 || end < 0) {
    console.warn(`build: ${name}: no module map found; every module left as it is`)
    return code
  }
  const mapText = code.slice(start + open.length, end)
  const parts = mapText.split(/\n\/\*\*\*\/ (\d+):\n/)
  // parts: [before, id, text, id, text, ...]
  const modules = new Map()
  for (let i = 1; i < parts.length; i += 2) modules.set(parts[i], parts[i + 1])
  // What each module requires now; the lazy binding and dynamic imports are requirements for later.
  const late = /__nccwpck_require__\.bind\(__nccwpck_require__, (\d+)\)/g
  const refs = (text) =>
    [
      ...text
        .replace(lazy?.[0] ?? '\0', '')
        .replace(late, '')
        .matchAll(/__nccwpck_require__\((\d+)\)/g),
    ].map((m) => m[1])
  const closure = (roots) => {
    const seen = new Set()
    const stack = [...roots]
    while (stack.length > 0) {
      const id = stack.pop()
      if (seen.has(id) || !modules.has(id)) continue
      seen.add(id)
      stack.push(...refs(modules.get(id)))
    }
    return seen
  }
  const eager = closure(refs(code.slice(0, start) + code.slice(end)))
  const lateRoots = [...code.matchAll(late)].map((m) => m[1])
  if (lazy) lateRoots.push(lazy[1])
  const deferred = new Set([...closure(lateRoots)].filter((id) => !eager.has(id)))
  if (deferred.size === 0) return code
  let out = parts[0]
  for (let i = 1; i < parts.length; i += 2) {
    const [id, text] = [parts[i], parts[i + 1]]
    const trimmed = text.replace(/,\s*$/, '')
    const comma = text.slice(trimmed.length)
    const fn = trimmed.replace(/^\/\*\*\*\/ /, '').replace(/\bimport\.meta\b/g, '__import_meta')
    out += `\n/***/ ${id}:\n`
    out += deferred.has(id)
      ? `/***/ ((module, exports, require) => __unparsed(${id}, ${JSON.stringify(fn)})(module, exports, require))${comma}`
      : text
  }
  const helper =
    'const __unparsed$cache = {}; const __unparsed = (id, text) => (__unparsed$cache[id] ??= (0, eval)(`"use strict";(__WEBPACK_EXTERNAL_createRequire, __import_meta) => ${text}`)(__WEBPACK_EXTERNAL_createRequire, import.meta));\n'
  const kib = [...deferred].reduce((sum, id) => sum + modules.get(id).length, 0) / 1024
  console.log(
    `build: ${name}: ${deferred.size} modules (${kib.toFixed(0)} KiB) compiled only when first required`,
  )
  return code.slice(0, start) + helper + open + out + code.slice(end)
}

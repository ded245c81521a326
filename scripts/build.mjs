// Builds the committed bundles with @vercel/ncc's Node API:
//   dist/index.js      the action (action.yml runs it)
//   dist/cli.js        the `site-staging` command for other CI systems
//   dist/simulator.js  the reference v2 API simulator (demo, tests, benchmarks)
//   dist/NNN.index.js  chunks the action loads only when needed (the PR comment)
// Each bundle is one self-contained ES module file.
import ncc from '@vercel/ncc'
import { mkdir, rm, writeFile, readdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const entries = [
  { src: 'src/index.ts', out: 'index.js' },
  { src: 'src/cli/index.ts', out: 'cli.js', shebang: true },
  { src: 'simulator/main.ts', out: 'simulator.js', shebang: true },
]

const dist = path.join(root, 'dist')
// Build every bundle in memory first, then write: a failed build leaves dist/ as it was.
const built = []
for (const entry of entries) {
  const file = path.join(root, entry.src)
  if (!existsSync(file)) continue
  const { code, assets } = await ncc(file, {
    minify: false,
    sourceMap: false,
    license: '',
    quiet: true,
    target: 'es2023',
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
  const body = lazyUndici(code.replace(/^#!.*\n/, ''), entry.out)
  built.push({
    name: entry.out,
    text: (entry.shebang ? '#!/usr/bin/env node\n' : '') + body,
    shebang: entry.shebang,
  })
}
built.push({ name: 'package.json', text: '{ "type": "module" }\n' })
await mkdir(dist, { recursive: true })
const keep = new Set(built.map((b) => b.name))
for (const name of await readdir(dist))
  if (!keep.has(name)) await rm(path.join(dist, name), { recursive: true, force: true })
for (const b of built) await writeFile(path.join(dist, b.name), b.text, { mode: b.shebang ? 0o755 : 0o644 })
console.log(`built: ${built.map((b) => b.name).join(', ')}`)

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

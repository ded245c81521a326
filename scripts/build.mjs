// Builds the committed bundles with @vercel/ncc's Node API:
//   dist/index.js      the action (action.yml runs it)
//   dist/cli.js        the `site-staging` command for other CI systems
//   dist/simulator.js  the reference v2 API simulator (demo, tests, benchmarks)
// Each bundle is one self-contained ES module file.
import ncc from '@vercel/ncc'
import { mkdir, rm, writeFile, readdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const entries = [
  { src: 'src/main.ts', out: 'index.js' },
  { src: 'src/cli.ts', out: 'cli.js', shebang: true },
  { src: 'src/simulator/main.ts', out: 'simulator.js', shebang: true },
]

const dist = path.join(root, 'dist')
await rm(dist, { recursive: true, force: true })
await mkdir(dist, { recursive: true })
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
  const names = Object.keys(assets ?? {}).filter((n) => n !== 'package.json')
  if (names.length > 0) throw new Error(`${entry.src}: unexpected extra bundle assets: ${names.join(', ')}`)
  const body = code.replace(/^#!.*\n/, '')
  await writeFile(path.join(dist, entry.out), (entry.shebang ? '#!/usr/bin/env node\n' : '') + body, { mode: 0o755 })
}
await writeFile(path.join(dist, 'package.json'), '{ "type": "module" }\n')
console.log(`built: ${(await readdir(dist)).join(', ')}`)

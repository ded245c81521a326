/**
 * Text from a server, made safe to show anywhere (a log line, a terminal, an output, a table cell):
 * pure functions, composed in the right order by `Redactor.inert` (src/secrets/redactor.ts), which adds the
 * removal of secrets between them. Nothing here knows GitHub: a workflow command is just a pattern a
 * line must not start with.
 */

/** Longest server text kept (a message, a reason, a comment): more never helps a person. */
export const MAX_SERVER_TEXT = 1000
/** Longest line the action or the CLI writes. */
export const MAX_LINE = 4000

const ANSI = new RegExp(
  [
    '\\u001b\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)?', // OSC ... BEL or ST (hyperlinks, titles)
    '\\u001b\\[[0-?]*[ -/]*[@-~]', // CSI (colours, cursor moves, erase)
    '\\u009b[0-?]*[ -/]*[@-~]', // 8-bit CSI
    '\\u001b[P^_][^\\u001b]*(?:\\u001b\\\\)?', // DCS, PM, APC strings
    '\\u001b[@-Z\\\\-_]?', // other escapes, or a lone ESC
  ].join('|'),
  'g',
)
/** Line ends the runner or a terminal honours: CR alone ends a runner line. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const LINE_BREAKS = /\r\n|[\r\n\u000b\u000c\u0085\u2028\u2029]/g
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g
/** Invisible characters that hide, join or reorder text (soft hyphen, zero-width, bidi: Trojan Source; the
 * grapheme joiner, fillers, variation selectors and tags, which render as nothing inside a token). */
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class -- the combining marks are what it removes, one by one
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu

/** One line of plain text. Whatever is joined or spaced here is joined or spaced before any secret is looked
 * for (the redactor scrubs after this, and finds a secret with white space put inside it), so a server
 * cannot hide a token from the scrub this way. */
export function oneLine(text: string): string {
  return text
    .replace(ANSI, '')
    .replace(INVISIBLE, '')
    .replace(LINE_BREAKS, ' ')
    .replace(CONTROLS, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

const ZWSP = '\u200b'

/** Makes workflow commands inert: the runner reads `::name::` at the start of a line (after leading white
 * space) and the legacy `##[name]` anywhere. A zero-width space breaks both; the text still reads the same. */
export function neutralizeCommands(line: string): string {
  // `##[` (GitHub's old commands, Azure's formatting) and Azure Pipelines' `##vso[` logging commands.
  let out = line.replace(/##(vso)?\[/gi, `##$1${ZWSP}[`)
  const lead = /^\s*/.exec(out)![0].length
  if (out.startsWith('::', lead)) out = `${out.slice(0, lead)}:${ZWSP}${out.slice(lead + 1)}`
  return out
}

/** Whether `text` holds a control character (a newline included). */
export function hasControl(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return /[\u0000-\u001f\u007f-\u009f]/.test(text)
}

/** At most `max` characters, cut on a code point, marked with an ellipsis when cut. */
export function bound(text: string, max: number): string {
  if (text.length <= max) return text
  let cut = max - 1
  const code = text.charCodeAt(cut - 1)
  if (code >= 0xd800 && code <= 0xdbff) cut-- // do not split a surrogate pair
  return `${text.slice(0, cut)}…`
}

/** An http(s) URL as text, or null: anything else (`javascript:`, `data:`, a path) is never shown as a link. */
export function httpUrl(text: string): URL | null {
  if (text.length > 2048 || /\s/.test(text)) return null
  try {
    const url = new URL(text)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null
  } catch {
    return null
  }
}

/** A loopback host name: the only hosts plain http may go to (api-url, wait-for-url). */
export function isLoopback(hostname: string): boolean {
  return /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(hostname)
}

/** https, or plain http to a loopback host. */
export function secureOrLoopback(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))
}

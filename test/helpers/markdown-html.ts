import MarkdownIt from 'markdown-it'

/**
 * Markdown as GitHub shows it, near enough for the tests of what a reader sees and copies: GFM
 * tables and strikethrough, bare URLs and `www.` linked (linkify, as GitHub's autolinks), HTML in
 * the source kept as HTML (so a test sees any tag that got through).
 */
const renderer = new MarkdownIt({ html: true, linkify: true })
// linkify-it reads any Unicode letter as part of an e-mail's domain, so it links `a@\u200bb.test`;
// GitHub's e-mail autolinks take ASCII alone (GFM spec, "extended email autolink"), which the
// zero-width space after `@` (src/report/markdown.ts) stops. URLs and `www.` it links as GitHub does.
renderer.linkify.set({ fuzzyEmail: false })

export function toHtml(markdown: string): string {
  return renderer.render(markdown)
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: '\u00a0' }

/** The text a person copies from the rendered HTML: tags gone, entities decoded, one line per block. */
export function htmlText(html: string): string {
  return html
    .replace(/<\/(p|h[1-6]|li|tr|blockquote|pre)>|<br\s*\/?>/gi, '\n')
    .replace(/<\/t[dh]>/gi, '\t')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      if (/^#x/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16))
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)))
      return ENTITIES[name.toLowerCase()] ?? whole
    })
}

/** The href of every link in the HTML. */
export function linkTargets(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="([^"]*)"/gi)].map((m) => m[1]!.replace(/&amp;/g, '&'))
}

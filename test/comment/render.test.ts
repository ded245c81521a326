import { describe, expect, test } from '@jest/globals'
import {
  hasMarker,
  isCommentFor,
  markerFor,
  MAX_COMMENT_CHARS,
  renderComment,
  stagingUrlFromComment,
} from '../../src/report/comment.js'
import { escapeMarkdown, md as inert, safeHttpUrl } from '../../src/report/markdown.js'
import { Redactor } from '../../src/secrets/redactor.js'
import { createdResult } from '../helpers/fakes.js'
import { linkTargets, toHtml } from '../helpers/markdown-html.js'
import type { Result } from '../../src/types.js'

const result = (over: Partial<Result> = {}): Result =>
  createdResult({
    taskId: 'abc123',
    stagingUrl: 'https://staging-1001.example.test',
    durationSeconds: 12.5,
    requests: 4,
    sent: ['POST /v2/sites/1001/staging -> 202'],
    startedAt: '2025-01-15T09:30:05.123Z',
    ...over,
  })

const plain = (t: string) => t

describe('renderComment', () => {
  test("names a push's checkpoint, and the version a rollback restored (issue 27 §1)", () => {
    const push = renderComment(result({ operation: 'push', checkpointId: 'v-7001' }), plain, {})
    expect(push).toContain('| Checkpoint | `v-7001` |')
    const back = renderComment(result({ operation: 'rollback', checkpointId: 'v-7001' }), plain, {})
    expect(back).toContain('| Restored version | `v-7001` |')
    expect(renderComment(result(), plain, {})).not.toMatch(/Checkpoint|Restored version/)
  })
  test('opens with the marker that names the site, then operation, result, URL, duration and time', () => {
    const body = renderComment(result(), plain, { runUrl: 'https://github.com/o/r/actions/runs/9' })
    const lines = body.split('\n')
    expect(lines[0]).toBe('<!-- site-staging-action:site=1001 -->')
    expect(body).toContain('### ✅ Staging environment ready')
    expect(body).toContain('| Operation | `create` |')
    expect(body).toContain('| Result | ✅ succeeded (HTTP 202) |')
    expect(body).toContain(
      '| Staging URL | [https://staging-1001.example.test](https://staging-1001.example.test) |',
    )
    expect(body).toContain('| Duration | 12.5s |')
    expect(body).toContain('| Time | 2025-01-15 09:30:05 UTC |')
    expect(body).toContain('| Run | [workflow run](https://github.com/o/r/actions/runs/9) |')
    expect(body).toContain('> **The server said:** Staging site creation started.')
    expect(isCommentFor(body, '1001')).toBe(true)
    expect(isCommentFor(body, '100')).toBe(false)
    expect(isCommentFor(body, '10011')).toBe(false)
  })

  test('a delete says staging was removed and shows no URL', () => {
    const body = renderComment(
      result({ operation: 'delete', stagingUrl: null, stagingSiteId: null }),
      plain,
      {
        previousStagingUrl: 'https://staging-1001.example.test',
      },
    )
    expect(body).toContain('### 🗑️ Staging environment removed')
    expect(body).toContain('| Staging URL | — (removed) |')
    expect(body).not.toContain('staging-1001.example.test')
    expect(stagingUrlFromComment(body)).toBeNull()
  })

  test('a skipped delete (nothing left) also says removed; a failed delete does not', () => {
    expect(renderComment(result({ operation: 'delete', result: 'skipped' }), plain)).toContain(
      'Staging environment removed (there was none left to delete)',
    )
    const failed = renderComment(
      result({ operation: 'delete', result: 'failed', error: { kind: 'busy', hint: 'Try later.' } }),
      plain,
    )
    expect(failed).toContain('### ❌ Staging delete: failed')
    expect(failed).not.toContain('removed')
    expect(failed).toContain('**What to do:** Try later.')
  })

  test('a pull without its own URL keeps the URL an earlier comment recorded, and says so', () => {
    const created = renderComment(result(), plain)
    expect(stagingUrlFromComment(created)).toBe('https://staging-1001.example.test')
    const pulled = renderComment(result({ operation: 'pull', stagingUrl: null }), plain, {
      previousStagingUrl: stagingUrlFromComment(created),
    })
    expect(pulled).toContain('### ✅ Staging refreshed from production')
    expect(pulled).toContain('staging-1001.example.test) (from an earlier run)')
    expect(stagingUrlFromComment(pulled)).toBe('https://staging-1001.example.test')
  })

  test('the staging URL says where this run found it (issue 20 §1); none said, nothing added', () => {
    const listed = renderComment(
      result({
        operation: 'pull',
        stagingFrom: { siteId: null, url: 'the site list, GET /v2/sites (field parent_id)', notes: [] },
      }),
      plain,
    )
    expect(listed.replace(/\\/g, '')).toMatch(
      /^\| Staging URL \| .*staging-1001\.example\.test.* \(from the site list, GET \/v2\/sites \(field parent\\?_id\)\) \|$/m,
    )
    expect(renderComment(result(), plain)).toMatch(
      /^\| Staging URL \| [^()]*\(https:\/\/staging-1001\.example\.test\) \|$/m,
    )
  })

  test('push warnings are listed', () => {
    const body = renderComment(
      result({ operation: 'push', warnings: ['No backup was taken.', 'No backup was taken.'] }),
      plain,
    )
    expect(body).toContain('### ✅ Staging pushed to production')
    expect(body.match(/No backup was taken\./g)).toHaveLength(1)
  })

  test('every text goes through the redactor', () => {
    const redactor = new Redactor()
    redactor.add('s3cr3t-token-value')
    const body = renderComment(
      result({
        result: 'failed',
        message: 'refused token s3cr3t-token-value',
        error: { kind: 'auth', hint: 'check s3cr3t-token-value' },
        warnings: ['w s3cr3t-token-value'],
        stagingUrl: 'https://x.test/?k=s3cr3t-token-value',
      }),
      (t) => redactor.scrub(t),
    )
    expect(body).not.toContain('s3cr3t-token-value')
    expect(body).toContain('refused token \\*\\*\\*')
    // A URL that held a secret is not shown at all (it would be a broken link).
    expect(body).toContain('| Staging URL | — |')
  })

  test('server text cannot inject HTML, links, mentions or break the table', () => {
    const body = renderComment(
      result({ message: 'hi @octocat <img src=x> [x](http://evil) | end\n--> #12', stagingUrl: null }),
      plain,
    )
    expect(body).not.toContain('<img')
    expect(body).not.toContain('@octocat')
    expect(body).not.toContain('[x](http://evil)')
    expect(body.match(/-->/g)).toHaveLength(1)
    expect(body).not.toContain('#12')
    expect(body.split('\n').filter((l) => l.startsWith('> '))).toHaveLength(1)
    expect(escapeMarkdown('a|b')).toBe('a\\|b')
  })

  test('a marker for a site id is exact', () => {
    expect(markerFor('site_1')).toBe('<!-- site-staging-action:site=site_1 -->')
  })
})

describe('only http(s) URLs we render ourselves', () => {
  test('safeHttpUrl keeps http and https URLs, as URL text that cannot end a link or an HTML comment', () => {
    expect(safeHttpUrl('https://staging-1001.example.test')).toBe('https://staging-1001.example.test')
    expect(safeHttpUrl('http://127.0.0.1:8787/staging-sites/s-1001/')).toBe(
      'http://127.0.0.1:8787/staging-sites/s-1001/',
    )
    expect(safeHttpUrl('  https://x.test/a  ')).toBe('https://x.test/a')
    const tricky = safeHttpUrl('https://x.test/a)b(c"d\'e`f<g>h-->i{j}|k^l')!
    expect(tricky).toBe("https://x.test/a%29b%28c%22d'e%60f%3Cg%3Eh--%3Ei%7Bj%7D%7Ck%5El")
    expect(tricky).not.toMatch(/[()<>"`{}|^\s]/)
  })

  test.each(
    [
      'javascript:alert(1)',
      'JAVASCRIPT://x.test/%0aalert(1)',
      'data:text/html,<script>x</script>',
      'ftp://x.test/',
      'file:///etc/passwd',
      '//x.test/path',
      'https://user:pass@x.test/',
      'https://x.test/a b',
      'https://x.test/a\nb',
      'https://x.test/\u0007',
      'https://x.test\\@evil.test/',
      'https://ex(am)ple.test/',
      `https://x.test/${'a'.repeat(2100)}`,
      '',
      'not a url',
    ].map((raw) => [JSON.stringify(raw).slice(0, 60), raw]),
  )('safeHttpUrl refuses %s', (_label, raw) => {
    expect(safeHttpUrl(raw)).toBeNull()
  })

  test('non-strings are refused', () => {
    expect(safeHttpUrl(null)).toBeNull()
    expect(safeHttpUrl(42)).toBeNull()
    expect(safeHttpUrl({ href: 'https://x.test' })).toBeNull()
  })

  test('credential-looking query parameters are removed; others stay', () => {
    expect(safeHttpUrl('https://x.test/wp-admin?autologin=abc&token=def&page=2&s_hash=1')).toBe(
      'https://x.test/wp-admin?page=2',
    )
    // Outside ASCII: the URL as the parser writes it (IDN host in punycode, path percent-encoded).
    expect(safeHttpUrl('https://bücher.test/ä')).toBe('https://xn--bcher-kva.test/%C3%A4')
    expect(safeHttpUrl('https://x.test/%C3%A4')).toBe('https://x.test/%C3%A4')
    expect(safeHttpUrl('https:///x.test/')).toBeNull()
  })

  test('a staging URL that is not http(s) is shown nowhere: no link, no marker', () => {
    for (const bad of ['javascript:alert(document.cookie)', 'data:text/html,hi', 'https://u:p@x.test/']) {
      const body = renderComment(result({ stagingUrl: bad }), plain)
      expect(body).toContain('| Staging URL | — |')
      expect(body).not.toContain('staging-url=')
      expect(body).not.toMatch(/javascript|data:|u:p@/)
      expect(stagingUrlFromComment(body)).toBeNull()
    }
  })

  test('the staging-url marker holds exactly what safeHttpUrl made, and the link cannot be broken out of', () => {
    const body = renderComment(result({ stagingUrl: 'https://x.test/a)(b--><img/src=x>' }), plain)
    const url = stagingUrlFromComment(body)
    expect(url).toBe('https://x.test/a%29%28b--%3E%3Cimg/src=x%3E')
    expect(body).toContain(`<!-- site-staging-action:staging-url=${url} -->`)
    expect(body).toContain(`](${url}) |`)
    expect(body).not.toContain('<img')
    expect(body.match(/-->/g)).toHaveLength(2) // the two markers' own ends
  })

  test('a staging-url marker we could not have written is not read', () => {
    const marker = (u: string) => `<!-- site-staging-action:staging-url=${u} -->`
    expect(stagingUrlFromComment(marker('javascript:alert(1)'))).toBeNull()
    expect(stagingUrlFromComment(marker('https://x.test/a(b)'))).toBeNull() // we would have encoded ( )
    expect(stagingUrlFromComment(marker('https://x.test/a"b'))).toBeNull() // we would have encoded "
    expect(stagingUrlFromComment(`text ${marker('https://x.test/')}`)).toBeNull() // not on its own line
    expect(stagingUrlFromComment(marker('https://x.test/'))).toBe('https://x.test/')
  })

  test('the run link is built the same way', () => {
    const body = renderComment(result(), plain, { runUrl: 'javascript:alert(1)' })
    expect(body).not.toContain('| Run |')
    expect(body).not.toContain('javascript')
  })
})

describe('server text is inert', () => {
  test('ANSI escapes, control, invisible and bidi characters go; newlines fold onto one line', () => {
    expect(inert('a\u001b[31mred\u001b[0m b\r\nc\u0000d\u202eevil\u2066e\u200bf')).toBe('ared b c devilef')
    expect(inert('\u001b]8;;https://evil.test\u0007link\u001b]8;;\u0007')).toBe('link')
  })

  test('no block structure at the start: headings, lists, quotes, rules', () => {
    expect(inert('# Big')).toBe('\\# Big')
    expect(inert('- item')).toBe('\\- item')
    expect(inert('+ item')).toBe('\\+ item')
    expect(inert('12. item')).toBe('12\\. item')
    expect(inert('> quote')).toBe('&gt; quote')
    expect(inert('=== x')).toBe('\\=== x')
  })

  test('no mentions, references, autolinks, math, emphasis, images, HTML or entities', () => {
    const t = inert(
      'ping @octocat and @org/team, see #12 and GH-34, mail a@b.test, https://evil.test and www.evil.test, ' +
        '$$x^2$$ **bold** ![img](https://evil.test/x.png) <b>hi</b> &copy; `code` ~~gone~~ a|b',
    )
    expect(t).not.toMatch(/@[A-Za-z0-9]/)
    expect(t).not.toMatch(/#\d/)
    expect(t).not.toMatch(/GH-\d/)
    // A URL goes in a code span (nothing links it there, and it copies as it is: no invisible
    // character in it); everything else is escaped.
    expect(t).toContain('`https://evil.test`')
    expect(t).toContain('`www.evil.test`')
    expect(t).toContain('\\(`https://evil.test/x.png`\\)')
    const outsideUrls = t.replace(/`(https:\/\/|www\.)[^`]*`/g, '')
    expect(outsideUrls).not.toMatch(/https:\/\/|www\./)
    expect(outsideUrls).not.toMatch(/(^|[^\\])[$*`~|![\]<>]/)
    expect(t).toContain('&amp;copy;')
    expect(t).toContain('&lt;b&gt;')
    // As rendered: no link, image, emphasis, strikethrough or tag of the server's.
    const html = toHtml(t)
    expect(linkTargets(html)).toEqual([])
    expect(html).not.toMatch(/<(img|strong|em|del|s|b)[\s>]/)
  })

  test('bounded: at most the given number of characters, plus an ellipsis', () => {
    expect(inert('x'.repeat(5000), 100)).toBe(`${'x'.repeat(99)}…`)
    // The limit counts UTF-16 units, and an emoji is never cut in half.
    expect(inert('😀'.repeat(10), 4)).toBe('😀…')
    expect(inert('😀'.repeat(10), 5)).toBe('😀😀…')
  })

  test("megabytes from the server make a comment within GitHub's limit", () => {
    const huge = 'A'.repeat(2_000_000)
    const body = renderComment(
      result({
        result: 'failed',
        message: huge,
        error: { kind: 'server', hint: huge },
        warnings: Array.from({ length: 500 }, (_, i) => `${i} ${huge.slice(0, 5000)}`),
        stagingSiteId: huge,
      }),
      plain,
    )
    expect(body.length).toBeLessThan(MAX_COMMENT_CHARS)
    expect(body.length).toBeLessThan(20_000)
    expect(body).toContain('… and 480 more')
  })

  test('a staging site id shows in a code span only when it is a plain identifier', () => {
    expect(renderComment(result({ stagingSiteId: 's-1001' }), plain)).toContain('| Staging site | `s-1001` |')
    const odd = renderComment(result({ stagingSiteId: 'x` <b>@octocat</b> `y' }), plain)
    expect(odd).toContain('| Staging site | x\\` &lt;b&gt;@\u200boctocat&lt;/b&gt; \\`y |')
  })

  test('hasMarker knows our marker for any site, at the start only', () => {
    expect(hasMarker(markerFor('42'))).toBe(true)
    expect(hasMarker(`  ${markerFor('42')}`)).toBe(true)
    expect(hasMarker(`> ${markerFor('42')}`)).toBe(false)
    expect(hasMarker(null)).toBe(false)
  })
})

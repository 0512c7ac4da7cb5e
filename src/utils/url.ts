// req.url's pathname for the router, as parseurl gives it and caches it on
// req._parsedUrl, with a shorter scan of the URL for the common case.
import * as nodeUrl from 'node:url'
import parseUrl from 'parseurl'

/**
 * node:url's legacy `Url` class, which parseurl builds its parses with
 * (undefined, should a Node drop it: then every parse is parseurl's own).
 */
const LegacyUrl = (nodeUrl as unknown as { Url?: new () => Record<string, unknown> }).Url

/**
 * Where parseurl's fast parse of `url` would find its search: -1 when it
 * has none, the index of the first '?' otherwise, or -2 when the fast parse
 * would not give the answer (`url` does not start with '/', or holds a
 * character it hands over to `url.parse`: a tab, a line break, a form feed,
 * a space, a '#', U+00A0 or U+FEFF). -2 is also given, to be safe, for the
 * other control characters and everything above U+009F, which parseurl
 * itself is left to parse.
 *
 * A URL longer than SCAN_LOOP_MAX is tested by NOT_PLAIN and searched with
 * `indexOf`, which run over the string's characters in V8's own code: a
 * `charCodeAt` loop in JavaScript costs ~30 instructions a character (each
 * `charCodeAt` reads the string's representation first), the regular
 * expression ~11 after a fixed ~380.
 */
function scan(url: string): number {
  if (url.charCodeAt(0) !== 0x2f) return -2
  if (url.length > SCAN_LOOP_MAX) return NOT_PLAIN.test(url) ? -2 : url.indexOf('?')
  let search = -1
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c <= 0x3f) {
      if (c === 0x3f) {
        if (search === -1) search = i
      } else if (c <= 0x20 || c === 0x23) {
        return -2
      }
    } else if (c >= 0xa0) {
      return -2
    }
  }
  return search
}

/** URLs up to this length are scanned by scan's loop; longer ones by NOT_PLAIN and `indexOf`. */
export const SCAN_LOOP_MAX = 16

/** A character scan's loop answers -2 for: a control character or space, '#', or anything from U+00A0 up. */
const NOT_PLAIN = /[\x00-\x20#\u00a0-\uffff]/

/** routerPathname's `known` when nothing is known: scan the URL. */
export const UNKNOWN = -3

/** Did the last routerPathname make the parse itself (then the URL is plain: see scan)? */
let plain = false

/** Was the URL routerPathname parsed last a plain one, parsed here (see scan)? */
export function lastParsePlain(): boolean {
  return plain
}

/** `parseurl(req).pathname`, or undefined when parseurl throws or gives none (the router then stops). */
export function slowPathname(req: any): string | undefined {
  try {
    return parseUrl(req)?.pathname ?? undefined
  } catch {
    return undefined
  }
}

/**
 * The pathname of `req.url` (a string), exactly as `parseurl(req).pathname`
 * gives it, leaving on `req._parsedUrl` what parseurl would leave: the parse
 * it already holds when that is still for `url` (parseurl's test), or a new
 * one. For a URL that starts with '/' and holds none of the characters
 * parseurl's fast parse stops at, that parse is made here, as the fast parse
 * makes it (a `Url` with `path`, `href` and `pathname`, and `query` and
 * `search` when there is a '?', then `_raw`), after a scan of its own.
 * Every other URL goes to parseurl.
 * `known` is what the scan would return for `url` when that is known
 * without it (where the search of a URL known to be plain starts, or -1),
 * or UNKNOWN.
 * @example req.url = '/users/42'; routerPathname(req, req.url, UNKNOWN) // '/users/42', req._parsedUrl set
 */
export function routerPathname(req: any, url: string, known: number): string | undefined {
  const parsed = req._parsedUrl
  plain = false
  if (LegacyUrl === undefined || (typeof parsed === 'object' && parsed !== null && parsed instanceof LegacyUrl && parsed._raw === url)) {
    return slowPathname(req)
  }
  const search = known === UNKNOWN ? scan(url) : known
  if (search === -2) return slowPathname(req)
  plain = true
  const u = new LegacyUrl()
  u.path = url
  u.href = url
  let pathname = url
  if (search === -1) {
    u.pathname = url
  } else {
    pathname = url.substring(0, search)
    u.pathname = pathname
    u.query = url.substring(search + 1)
    u.search = url.substring(search)
  }
  u._raw = url
  req._parsedUrl = u
  return pathname
}

// The router's pathname of req.url (src/utils/url.ts): the answer and the
// parse it leaves on req._parsedUrl are parseurl's, for every URL, whether
// the router made the parse itself or handed the URL to parseurl.
import parseurl from 'parseurl'
import { describe, expect, it } from 'vitest'
import { random } from './fuzz/state-support.mjs'
import { SCAN_LOOP_MAX, UNKNOWN, lastParsePlain, routerPathname } from '../src/utils/url'

/** What a parse is made of, for comparing two: its class, its own keys in order, and their values. */
function shape(parsed: any): unknown {
  if (parsed === undefined || parsed === null) return parsed
  return { proto: Object.getPrototypeOf(parsed), keys: Reflect.ownKeys(parsed), values: Reflect.ownKeys(parsed).map((k) => parsed[k]) }
}

/** Both ways of asking, each on a request of its own. */
function both(url: string): { ours: unknown; theirs: unknown; ourParse: unknown; theirParse: unknown } {
  const a: any = { url }
  const b: any = { url }
  const ours = routerPathname(a, url, UNKNOWN)
  // (no pathname, null or absent, is undefined to the router: it stops there)
  const theirs = parseurl(b)?.pathname ?? undefined
  return { ours, theirs, ourParse: shape(a._parsedUrl), theirParse: shape(b._parsedUrl) }
}

const corpus = [
  '/', '/a', '/a/b', '/a/b/', '//', '//a/b', '/a//b', '/users/42/posts/7',
  '/?', '/a?', '/a?b', '/a?b=1&c=2', '/a?b=1?c=2', '/a?b#c', '/a#b', '/a#b?c', '/#',
  '/a b', '/a\tb', '/a\nb', '/a\rb', '/a\fb', '/a\u00a0b', '/a\ufeffb', '/a\u000bb', '/a\u0000b', '/a\u007fb', '/a\u0080b', '/a\u00ffb', '/a\u0100b',
  '/a?b c', '/a?b\u00a0', '/%20', '/a%3Fb', '/caf%C3%A9', '/é', '/a/b/c/d/e/f/g/h/i/j/k/l/m/n',
  '', '*', 'a', 'http://host/a?b', 'http://host', '?a', ' /a', '\t/a'
]

/** The characters random URLs are made of: those the scan looks for, and some it passes over. */
const chars = ['/', '/', '/', 'a', 'b', 'Z', '0', '%', '?', '?', '#', ' ', '\t', '\n', '\f', '\r', '\u000b', '\u00a0', '\ufeff', '\u00e9', '\u0100', '=', '&', '.', '-']

/** A seeded generator of integers below `n` (the fuzzers' generator: the same sequence for the same seed). */
function seeded(seed: number): (n: number) => number {
  const next = random(seed).next
  return (n) => Math.floor(next() * n)
}

/** Does `url` hold a character the scan's loop answers -2 for (a control character or space, '#', U+00A0 and above)? */
function notPlain(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c <= 0x20 || c === 0x23 || c >= 0xa0) return true
  }
  return false
}

describe('routerPathname gives parseurl\'s answer and leaves parseurl\'s parse', () => {
  for (const url of corpus) {
    it(`for ${JSON.stringify(url)}`, () => {
      const r = both(url)
      expect(r.ours).toBe(r.theirs)
      expect(r.ourParse).toEqual(r.theirParse)
    })
  }

  it('for random URLs made of the characters that matter', () => {
    const rand = seeded(7)
    for (let n = 0; n < 3000; n++) {
      let url = rand(10) === 0 ? '' : '/'
      const len = rand(14)
      for (let i = 0; i < len; i++) url += chars[rand(chars.length)]
      const r = both(url)
      expect([url, r.ours]).toEqual([url, r.theirs])
      expect([url, r.ourParse]).toEqual([url, r.theirParse])
    }
  })

  it('keeps a parse still for this URL, as parseurl does, and replaces one for another', () => {
    const req: any = { url: '/a?b=1' }
    const kept = parseurl(req)
    expect(routerPathname(req, req.url, UNKNOWN)).toBe('/a')
    expect(req._parsedUrl).toBe(kept)
    req.url = '/c'
    expect(routerPathname(req, req.url, UNKNOWN)).toBe('/c')
    expect(req._parsedUrl).not.toBe(kept)
    expect(req._parsedUrl._raw).toBe('/c')
    // and parseurl takes the router's parse as its own
    expect(parseurl(req)).toBe(req._parsedUrl)
  })

  it('takes a known search for a plain URL, and says which parses were its own', () => {
    // (what a router entering a mounted router passes on)
    for (const url of ['/', '/a', '/a/b/', '/?', '/a?', '/a?b=1?c=2', '/users/42/posts/7?x=/y']) {
      const a: any = { url }
      const b: any = { url }
      expect(routerPathname(a, url, url.indexOf('?'))).toBe(parseurl(b)!.pathname)
      expect(shape(a._parsedUrl)).toEqual(shape(b._parsedUrl))
      expect(lastParsePlain()).toBe(true)
    }
    // a URL parseurl parses, and a parse kept: not the router's own
    routerPathname({ url: '/a b' }, '/a b', UNKNOWN)
    expect(lastParsePlain()).toBe(false)
    const req: any = { url: '/a' }
    parseurl(req)
    routerPathname(req, req.url, UNKNOWN)
    expect(lastParsePlain()).toBe(false)
    routerPathname({ url: '/a' }, '/a', UNKNOWN)
    expect(lastParsePlain()).toBe(true)
  })

  it('for URLs longer than the scan\'s loop takes, each character that matters at each place', () => {
    // (past SCAN_LOOP_MAX characters the scan is a regular expression and indexOf)
    const specials = ['?', '#', ' ', '\t', '\n', '\f', '\r', '\u000b', '\u0000', '\u001f', '\u0020', '\u007f', '\u0080', '\u009f', '\u00a0', '\u00a1', '\u00e9', '\u00ff', '\u0100', '\ufeff', '\ud83d', '\uffff', '!', '~', '%']
    const body = '/users/42/posts/7/comments/9'
    expect(body.length).toBeGreaterThan(SCAN_LOOP_MAX)
    for (const c of specials) {
      for (const at of [1, 2, SCAN_LOOP_MAX, SCAN_LOOP_MAX + 1, body.length - 1, body.length]) {
        for (const url of [body.slice(0, at) + c + body.slice(at), body.slice(0, at) + '?q=1' + c + body.slice(at)]) {
          const r = both(url)
          expect([url, r.ours, r.ourParse]).toEqual([url, r.theirs, r.theirParse])
          // a URL the scan called plain was parsed by the router itself
          const a: any = { url }
          routerPathname(a, url, UNKNOWN)
          expect([url, lastParsePlain()]).toEqual([url, !notPlain(url)])
        }
      }
    }
  })

  it('for random long URLs made of the characters that matter', () => {
    const rand = seeded(11)
    for (let n = 0; n < 3000; n++) {
      let url = '/'
      const len = SCAN_LOOP_MAX + rand(40)
      // (mostly letters and slashes, so that many URLs stay plain)
      for (let i = 0; i < len; i++) url += rand(4) === 0 ? chars[rand(chars.length)] : 'abc/'[rand(4)]
      const r = both(url)
      expect([url, r.ours, r.ourParse]).toEqual([url, r.theirs, r.theirParse])
    }
  })

  it('leaves a URL parseurl throws on with no pathname', () => {
    const req: any = { url: '/a', _parsedUrl: undefined }
    Object.defineProperty(req, 'url', { get: () => { throw new Error('no url') } })
    // (the router passes the URL it read; parseurl reads it again and throws)
    expect(routerPathname(req, 'http://[bad', UNKNOWN)).toBe(undefined)
  })
})

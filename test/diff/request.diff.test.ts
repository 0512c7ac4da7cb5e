// Differential tests for the request object: the same app is built with
// express@5 (the oracle) and with switchyard; each handler answers with a
// JSON dump of every `req` property and method result; the dumps must match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import express from 'express'
import fw from '../../src/index'
import { listen } from '../support/diff'
import { dumpRequest, send, type WireRequest } from '../support/req-dump'

type Lib = any
type Prepare = (req: any, res: any) => void

interface Case extends WireRequest {
  name: string
  settings?: Record<string, unknown>
  /** mount the handler with app.use(mount, handler) */
  mount?: string
  /** register the handler with app.all(route, handler) (or `routeMethod`) */
  route?: string
  routeMethod?: string
  /** mount a Router at `router[0]` holding the route `router[1]` */
  router?: [string, string]
  /** mount a sub-application at this path; `settings` go to the parent, `subSettings` to it */
  subApp?: string
  subSettings?: Record<string, unknown>
  /** set response status/headers before the dump (for req.fresh) */
  prepare?: Prepare
}

const LOCAL = '127.0.0.1'
const trustTwoHops = (_addr: string, i: number) => i < 2
const trustLoopbackOnly = (addr: string) => addr === LOCAL || addr === '::ffff:127.0.0.1'
const rawQuery = (str: unknown) => ({ raw: str === null ? 'null' : typeof str === 'string' ? str : typeof str })
const etag = (value: string, status = 200): Prepare => (_req, res) => { res.statusCode = status; res.setHeader('ETag', value) }
const modified = (date: string): Prepare => (_req, res) => { res.setHeader('Last-Modified', date) }
const XFF = { 'X-Forwarded-For': '10.0.0.1, 10.0.0.2, 192.168.1.9' }
const LM = 'Tue, 01 Jan 2030 00:00:00 GMT'

const cases: Case[] = [
  // url, path, query
  { name: 'root', path: '/' },
  { name: 'nested path', path: '/foo/bar/' },
  { name: 'simple query', path: '/foo?x=1&y=two' },
  { name: 'repeated query key', path: '/foo?x=1&x=2&x=3' },
  { name: 'brackets with simple parser', path: '/foo?a[b]=c&d[]=1' },
  { name: 'brackets with extended parser', path: '/foo?a[b]=c&d[]=1&d[]=2', settings: { 'query parser': 'extended' } },
  { name: 'deep nesting extended', path: '/foo?a[b][c][d][e][f][g][h]=1', settings: { 'query parser': 'extended' } },
  { name: 'sparse arrays extended', path: '/foo?a[1]=b&a[30]=c&a[]=d', settings: { 'query parser': 'extended' } },
  { name: 'empty query', path: '/foo?' },
  { name: 'key without value', path: '/foo?flag&x=&=y' },
  { name: 'plus and percent', path: '/foo?q=a+b%20c&e=%E2%82%AC' },
  { name: 'bad percent simple', path: '/foo?q=%ZZ&r=%' },
  { name: 'bad percent extended', path: '/foo?q=%ZZ&r=%', settings: { 'query parser': 'extended' } },
  { name: 'query parser false', path: '/foo?x=1', settings: { 'query parser': false } },
  { name: 'query parser false without query', path: '/foo', settings: { 'query parser': false } },
  { name: 'query parser true', path: '/foo?a[b]=1', settings: { 'query parser': true } },
  { name: 'query parser function', path: '/foo?x=1&y', settings: { 'query parser': rawQuery } },
  { name: 'query parser function without query', path: '/foo', settings: { 'query parser': rawQuery } },
  { name: 'query parser function with empty query', path: '/foo?', settings: { 'query parser': rawQuery } },
  { name: 'proto keys extended', path: '/foo?__proto__[x]=1&constructor=2&hasOwnProperty=3', settings: { 'query parser': 'extended' } },
  { name: 'proto keys simple', path: '/foo?__proto__=1&hasOwnProperty=3' },
  { name: 'many parameters extended', path: '/foo?' + Array.from({ length: 1100 }, (_, i) => `k${i}=${i}`).join('&'), settings: { 'query parser': 'extended' } },
  { name: 'encoded path', path: '/a%20b/c%2Fd?x=%20' },
  { name: 'double slash path', path: '//double//slash' },
  { name: 'absolute-form URL', path: 'http://example.com/abs/path?x=1' },
  { name: 'hash in path', path: '/foo#frag' },
  // routing-related properties
  { name: 'mounted middleware', path: '/mnt/sub/path?q=1', mount: '/mnt' },
  { name: 'mounted at exact path', path: '/mnt', mount: '/mnt' },
  { name: 'route params', path: '/users/42/books/7?x=y', route: '/users/:uid/books/:bid' },
  { name: 'encoded route param', path: '/users/a%20b', route: '/users/:uid' },
  { name: 'wildcard route', path: '/files/a/b/c.txt', route: '/files/*splat' },
  { name: 'get route', path: '/g/1', route: '/g/:id', routeMethod: 'get' },
  { name: 'router mounted', path: '/api/items/9?z=1', router: ['/api', '/items/:id'] },
  { name: 'sub app inherits trust proxy', path: '/sub/x', subApp: '/sub', settings: { 'trust proxy': true }, headers: { ...XFF, 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'fwd.example.org' } },
  { name: 'sub app keeps its own subdomain offset', path: '/sub/x', subApp: '/sub', settings: { 'subdomain offset': 1 }, headers: { Host: 'a.b.example.com' } },
  { name: 'sub app own settings', path: '/sub/x?a[b]=1', subApp: '/sub', subSettings: { 'query parser': 'extended', 'subdomain offset': 3 }, headers: { Host: 'a.b.c.example.com' } },
  // methods
  { name: 'PUT', method: 'PUT', path: '/m' },
  { name: 'DELETE', method: 'DELETE', path: '/m' },
  { name: 'OPTIONS', method: 'OPTIONS', path: '/m' },
  { name: 'PATCH', method: 'PATCH', path: '/m' },
  // host, hostname, subdomains
  { name: 'host plain', path: '/', headers: { Host: 'example.com' } },
  { name: 'host with port', path: '/', headers: { Host: 'example.com:3000' } },
  { name: 'host with subdomains', path: '/', headers: { Host: 'tobi.ferrets.example.com' } },
  { name: 'host ipv6 with port', path: '/', headers: { Host: '[::1]:3000' } },
  { name: 'host ipv6 without port', path: '/', headers: { Host: '[::1]' } },
  { name: 'host ipv6 unterminated', path: '/', headers: { Host: '[::1:3000' } },
  { name: 'host ipv4', path: '/', headers: { Host: '127.0.0.1:8080' } },
  { name: 'host ipv4 offset 0', path: '/', headers: { Host: '10.1.2.3' }, settings: { 'subdomain offset': 0 } },
  { name: 'subdomain offset 3', path: '/', headers: { Host: 'a.b.c.example.co.uk' }, settings: { 'subdomain offset': 3 } },
  { name: 'subdomain offset 0', path: '/', headers: { Host: 'a.example.com' }, settings: { 'subdomain offset': 0 } },
  { name: 'host trailing dot', path: '/', headers: { Host: 'a.example.com.' } },
  { name: 'host upper case', path: '/', headers: { Host: 'API.Example.COM' } },
  { name: 'host empty labels', path: '/', headers: { Host: 'a..b.example.com' } },
  { name: 'host only port', path: '/', headers: { Host: ':3000' } },
  { name: 'host odd port', path: '/', headers: { Host: 'example.com:abc:def' } },
  { name: 'host empty', path: '/', headers: { Host: '' } },
  { name: 'no host header', path: '/', setHost: false },
  { name: 'x-forwarded-host not trusted', path: '/', headers: { Host: 'example.com', 'X-Forwarded-Host': 'evil.example.org' } },
  { name: 'x-forwarded-host trusted', path: '/', headers: { Host: 'example.com', 'X-Forwarded-Host': 'a.b.fwd.example.org:8443' }, settings: { 'trust proxy': true } },
  { name: 'x-forwarded-host list', path: '/', headers: { Host: 'example.com', 'X-Forwarded-Host': 'one.example.org , two.example.org' }, settings: { 'trust proxy': true } },
  { name: 'x-forwarded-host repeated', path: '/', headers: { Host: 'example.com', 'X-Forwarded-Host': ['one.example.org', 'two.example.org'] }, settings: { 'trust proxy': true } },
  { name: 'x-forwarded-host ipv6', path: '/', headers: { Host: 'example.com', 'X-Forwarded-Host': '[2001:db8::1]:8080' }, settings: { 'trust proxy': true } },
  { name: 'x-forwarded-host with untrusted peer', path: '/', headers: { Host: 'example.com', 'X-Forwarded-Host': 'fwd.example.org' }, settings: { 'trust proxy': '10.0.0.1' } },
  { name: 'x-forwarded-host trusted loopback', path: '/', headers: { Host: 'example.com', 'X-Forwarded-Host': 'fwd.example.org' }, settings: { 'trust proxy': 'loopback' } },
  { name: 'x-forwarded-host empty', path: '/', headers: { Host: 'example.com', 'X-Forwarded-Host': '' }, settings: { 'trust proxy': true } },
  { name: 'x-forwarded-host leading comma', path: '/', headers: { Host: 'example.com', 'X-Forwarded-Host': ',second.example.org' }, settings: { 'trust proxy': true } },
  // ip, ips, trust proxy forms
  { name: 'ip direct', path: '/' },
  { name: 'ip ignores x-forwarded-for when not trusted', path: '/', headers: XFF },
  { name: 'trust proxy true', path: '/', headers: XFF, settings: { 'trust proxy': true } },
  { name: 'trust proxy false explicit', path: '/', headers: XFF, settings: { 'trust proxy': false } },
  { name: 'trust proxy hop count 1', path: '/', headers: XFF, settings: { 'trust proxy': 1 } },
  { name: 'trust proxy hop count 2', path: '/', headers: XFF, settings: { 'trust proxy': 2 } },
  { name: 'trust proxy hop count 0', path: '/', headers: XFF, settings: { 'trust proxy': 0 } },
  { name: 'trust proxy hop count 10', path: '/', headers: XFF, settings: { 'trust proxy': 10 } },
  { name: 'trust proxy loopback', path: '/', headers: XFF, settings: { 'trust proxy': 'loopback' } },
  { name: 'trust proxy comma list', path: '/', headers: XFF, settings: { 'trust proxy': 'loopback, 192.168.1.9' } },
  { name: 'trust proxy array with subnet', path: '/', headers: XFF, settings: { 'trust proxy': ['loopback', '192.168.0.0/16', '10.0.0.2'] } },
  { name: 'trust proxy uniquelocal', path: '/', headers: XFF, settings: { 'trust proxy': 'uniquelocal' } },
  { name: 'trust proxy loopback+uniquelocal', path: '/', headers: XFF, settings: { 'trust proxy': 'loopback,uniquelocal' } },
  { name: 'trust proxy linklocal', path: '/', headers: XFF, settings: { 'trust proxy': 'linklocal' } },
  { name: 'trust proxy cidr', path: '/', headers: XFF, settings: { 'trust proxy': '127.0.0.1/8' } },
  { name: 'trust proxy netmask', path: '/', headers: XFF, settings: { 'trust proxy': ['127.0.0.1/255.0.0.0', '192.168.1.9'] } },
  { name: 'trust proxy function hops', path: '/', headers: XFF, settings: { 'trust proxy': trustTwoHops } },
  { name: 'trust proxy function address', path: '/', headers: XFF, settings: { 'trust proxy': trustLoopbackOnly } },
  { name: 'garbage x-forwarded-for', path: '/', headers: { 'X-Forwarded-For': 'not-an-ip, , 10.0.0.1:80, 300.1.1.1' }, settings: { 'trust proxy': true } },
  { name: 'garbage x-forwarded-for with subnet trust', path: '/', headers: { 'X-Forwarded-For': '1.2.3.4, bogus' }, settings: { 'trust proxy': 'loopback' } },
  { name: 'ipv6 x-forwarded-for', path: '/', headers: { 'X-Forwarded-For': '2001:db8::1, ::ffff:10.0.0.1, fe80::1' }, settings: { 'trust proxy': true } },
  { name: 'ipv6 x-forwarded-for linklocal', path: '/', headers: { 'X-Forwarded-For': '2001:db8::1, fe80::1' }, settings: { 'trust proxy': 'loopback, linklocal' } },
  { name: 'repeated x-forwarded-for', path: '/', headers: { 'X-Forwarded-For': ['1.1.1.1', '2.2.2.2'] }, settings: { 'trust proxy': true } },
  { name: 'empty x-forwarded-for', path: '/', headers: { 'X-Forwarded-For': '' }, settings: { 'trust proxy': true } },
  // protocol, secure
  { name: 'x-forwarded-proto not trusted', path: '/', headers: { 'X-Forwarded-Proto': 'https' } },
  { name: 'x-forwarded-proto trusted', path: '/', headers: { 'X-Forwarded-Proto': 'https' }, settings: { 'trust proxy': true } },
  { name: 'x-forwarded-proto list', path: '/', headers: { 'X-Forwarded-Proto': 'https , http' }, settings: { 'trust proxy': true } },
  { name: 'x-forwarded-proto repeated', path: '/', headers: { 'X-Forwarded-Proto': ['http', 'https'] }, settings: { 'trust proxy': 'loopback' } },
  { name: 'x-forwarded-proto upper case', path: '/', headers: { 'X-Forwarded-Proto': 'HTTPS' }, settings: { 'trust proxy': true } },
  { name: 'x-forwarded-proto empty', path: '/', headers: { 'X-Forwarded-Proto': '' }, settings: { 'trust proxy': true } },
  { name: 'x-forwarded-proto untrusted peer', path: '/', headers: { 'X-Forwarded-Proto': 'https' }, settings: { 'trust proxy': '10.0.0.0/8' } },
  // fresh, stale
  { name: 'fresh without conditionals', path: '/', prepare: etag('"abc"') },
  { name: 'fresh if-none-match match', path: '/', headers: { 'If-None-Match': '"abc"' }, prepare: etag('"abc"') },
  { name: 'fresh if-none-match weak', path: '/', headers: { 'If-None-Match': 'W/"abc"' }, prepare: etag('"abc"') },
  { name: 'fresh if-none-match weak response', path: '/', headers: { 'If-None-Match': '"abc"' }, prepare: etag('W/"abc"') },
  { name: 'fresh if-none-match list', path: '/', headers: { 'If-None-Match': '"x", "abc" ,"y"' }, prepare: etag('"abc"') },
  { name: 'fresh if-none-match star', path: '/', headers: { 'If-None-Match': '*' }, prepare: etag('"abc"') },
  { name: 'fresh if-none-match mismatch', path: '/', headers: { 'If-None-Match': '"nope"' }, prepare: etag('"abc"') },
  { name: 'fresh if-none-match without etag', path: '/', headers: { 'If-None-Match': '"abc"' } },
  { name: 'fresh if-modified-since newer', path: '/', headers: { 'If-Modified-Since': 'Wed, 02 Jan 2030 00:00:00 GMT' }, prepare: modified(LM) },
  { name: 'fresh if-modified-since equal', path: '/', headers: { 'If-Modified-Since': LM }, prepare: modified(LM) },
  { name: 'fresh if-modified-since older', path: '/', headers: { 'If-Modified-Since': 'Mon, 31 Dec 2029 00:00:00 GMT' }, prepare: modified(LM) },
  { name: 'fresh if-modified-since invalid', path: '/', headers: { 'If-Modified-Since': 'yesterday' }, prepare: modified(LM) },
  { name: 'fresh no-cache', path: '/', headers: { 'If-None-Match': '"abc"', 'Cache-Control': 'max-age=0, no-cache' }, prepare: etag('"abc"') },
  { name: 'fresh POST', method: 'POST', path: '/', headers: { 'If-None-Match': '"abc"' }, prepare: etag('"abc"') },
  { name: 'fresh HEAD', method: 'HEAD', path: '/', headers: { 'If-None-Match': '"abc"' }, prepare: etag('"abc"') },
  { name: 'fresh 404', path: '/', headers: { 'If-None-Match': '"abc"' }, prepare: etag('"abc"', 404) },
  { name: 'fresh 304', path: '/', headers: { 'If-None-Match': '"abc"' }, prepare: etag('"abc"', 304) },
  { name: 'fresh 299', path: '/', headers: { 'If-None-Match': '"abc"' }, prepare: etag('"abc"', 299) },
  { name: 'fresh etag mismatch overrides date', path: '/', headers: { 'If-None-Match': '"no"', 'If-Modified-Since': 'Wed, 02 Jan 2030 00:00:00 GMT' }, prepare: (q, s) => { etag('"abc"')(q, s); modified(LM)(q, s) } },
  // headers, xhr
  { name: 'referer', path: '/', headers: { Referer: 'http://a.example/' } },
  { name: 'referrer spelling', path: '/', headers: { Referrer: 'http://b.example/' } },
  { name: 'both referer spellings', path: '/', headers: { Referrer: 'http://b.example/', Referer: 'http://a.example/' } },
  { name: 'set-cookie request header', path: '/', headers: { 'Set-Cookie': ['a=1', 'b=2'] } },
  { name: 'xhr', path: '/', headers: { 'X-Requested-With': 'XMLHttpRequest' } },
  { name: 'xhr lower case', path: '/', headers: { 'X-Requested-With': 'xmlhttprequest' } },
  { name: 'xhr other value', path: '/', headers: { 'X-Requested-With': 'fetch' } },
  // content negotiation
  { name: 'accept html', path: '/', headers: { Accept: 'text/html' } },
  { name: 'accept weighted', path: '/', headers: { Accept: 'application/json;q=0.5, text/*;q=0.8, image/png' } },
  { name: 'accept any', path: '/', headers: { Accept: '*/*' } },
  { name: 'accept q=0', path: '/', headers: { Accept: 'text/html;q=0, */*' } },
  { name: 'accept garbage', path: '/', headers: { Accept: ';;;,,=/q=x, /, text/' } },
  { name: 'accept with params', path: '/', headers: { Accept: 'text/plain; charset=utf-8; level=1, application/json' } },
  { name: 'accept-encoding', path: '/', headers: { 'Accept-Encoding': 'gzip, deflate;q=0, br;q=0.5' } },
  { name: 'accept-encoding identity refused', path: '/', headers: { 'Accept-Encoding': 'identity;q=0, *;q=0' } },
  { name: 'accept-charset', path: '/', headers: { 'Accept-Charset': 'utf-8, iso-8859-1;q=0.2, utf-16;q=0' } },
  { name: 'accept-language', path: '/', headers: { 'Accept-Language': 'en-US, fr;q=0.5, de;q=0.7' } },
  { name: 'accept-language garbage', path: '/', headers: { 'Accept-Language': ';q=1,,;;xx-;q=abc' } },
  { name: 'accept-language star', path: '/', headers: { 'Accept-Language': '*' } },
  // req.is
  { name: 'is json body', method: 'POST', path: '/', headers: { 'Content-Type': 'application/json' }, body: '{}' },
  { name: 'is html with charset', method: 'POST', path: '/', headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: '<p>' },
  { name: 'is vendor json', method: 'POST', path: '/', headers: { 'Content-Type': 'application/vnd.api+json' }, body: '{}' },
  { name: 'is urlencoded', method: 'POST', path: '/', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1' },
  { name: 'is chunked body', method: 'POST', path: '/', headers: { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' }, body: 'hi' },
  { name: 'is without body', path: '/', headers: { 'Content-Type': 'application/json' } },
  { name: 'is with empty body', method: 'POST', path: '/', headers: { 'Content-Type': 'application/json', 'Content-Length': '0' } },
  { name: 'is invalid content-type', method: 'POST', path: '/', headers: { 'Content-Type': 'garbage' }, body: 'x' },
  { name: 'is body without content-type', method: 'POST', path: '/', body: 'x' },
  // req.range
  { name: 'range single', path: '/', headers: { Range: 'bytes=0-99' } },
  { name: 'range overlapping', path: '/', headers: { Range: 'bytes=0-99,50-150,500-' } },
  { name: 'range adjacent', path: '/', headers: { Range: 'bytes=0-9,10-19' } },
  { name: 'range unsatisfiable', path: '/', headers: { Range: 'bytes=2000-3000' } },
  { name: 'range malformed', path: '/', headers: { Range: 'bytes:0-5' } },
  { name: 'range garbage', path: '/', headers: { Range: 'x' } },
  { name: 'range suffix', path: '/', headers: { Range: 'bytes=-500' } },
  { name: 'range other unit', path: '/', headers: { Range: 'items=0-5' } },
  { name: 'range end past size', path: '/', headers: { Range: 'bytes=900-5000' } }
]

function parseDump(answer: { body: string; headers: Record<string, unknown> }): unknown {
  const header = answer.headers['x-dump']
  return JSON.parse(typeof header === 'string' ? Buffer.from(header, 'base64').toString() : answer.body)
}

function build(lib: Lib, c: Case): any {
  const app = lib()
  for (const [k, v] of Object.entries(c.settings ?? {})) app.set(k, v)
  const handlerFor = (owner: unknown) => (req: any, res: any) => {
    c.prepare?.(req, res)
    const dump = dumpRequest(req, res, owner)
    res.statusCode = 200
    res.removeHeader('ETag')
    res.removeHeader('Last-Modified')
    res.setHeader('Content-Type', 'application/json')
    // a HEAD answer has no body: carry the dump in a header instead
    if (req.method === 'HEAD') res.setHeader('X-Dump', Buffer.from(JSON.stringify(dump)).toString('base64'))
    res.end(JSON.stringify(dump))
  }
  if (c.mount) app.use(c.mount, handlerFor(app))
  else if (c.route) app[c.routeMethod ?? 'all'](c.route, handlerFor(app))
  else if (c.router) {
    const router = lib.Router()
    router.all(c.router[1], handlerFor(app))
    app.use(c.router[0], router)
  } else if (c.subApp) {
    const sub = lib()
    for (const [k, v] of Object.entries(c.subSettings ?? {})) sub.set(k, v)
    sub.use(handlerFor(sub))
    app.use(c.subApp, sub)
  } else app.use(handlerFor(app))
  return app
}

describe('req (differential against express@5)', () => {
  it(`has at least 80 cases (${cases.length})`, () => {
    expect(cases.length).toBeGreaterThanOrEqual(80)
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length)
  })

  for (const c of cases) {
    it(c.name, async () => {
      const ours = await listen(build(fw, c))
      const theirs = await listen(build(express, c))
      try {
        const [a, b] = await Promise.all([send(ours.port, c), send(theirs.port, c)])
        expect(a.status).toBe(b.status)
        expect(b.status).toBe(200)
        expect(parseDump(a)).toEqual(parseDump(b))
      } finally {
        await Promise.all([ours.close(), theirs.close()])
      }
    })
  }
})

describe('trust proxy function calls (differential against express@5)', () => {
  const full = { 'X-Forwarded-For': '1.1.1.1, 2.2.2.2, 3.3.3.3', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'fwd.example.org' }
  // X-Forwarded-For with no address in it: proxy-addr has only the peer, and asks nothing
  const variants: Array<[string, Record<string, string>]> = [
    ['a three-hop X-Forwarded-For', full], ['no X-Forwarded-For', {}], ["an empty X-Forwarded-For", { 'X-Forwarded-For': '' }],
    ["X-Forwarded-For ','", { 'X-Forwarded-For': ',' }], ['one address', { 'X-Forwarded-For': '9.9.9.9' }]
  ]
  for (const prop of ['ip', 'ips', 'protocol', 'host']) {
    for (const [label, headers] of variants) {
      for (const answer of [true, false]) {
        it(`req.${prop} asks the trust function the same questions (${label}, trust answers ${answer ? 'i < 2' : 'false'})`, async () => {
          const calls = (lib: Lib) => {
            const seen: Array<[string, number]> = []
            const app = lib()
            app.set('trust proxy', (addr: string, i: number) => { seen.push([addr, i]); return answer && i < 2 })
            app.use((req: any, res: any) => { const value = req[prop]; res.end(JSON.stringify({ seen, value })) })
            return app
          }
          const ours = await listen(calls(fw))
          const theirs = await listen(calls(express))
          try {
            const [a, b] = await Promise.all([send(ours.port, { path: '/', headers }), send(theirs.port, { path: '/', headers })])
            expect(JSON.parse(a.body)).toEqual(JSON.parse(b.body))
          } finally {
            await Promise.all([ours.close(), theirs.close()])
          }
        })
      }
    }
  }
})

// Express's req.host, req.protocol and req.xhr (and so hostname, subdomains
// and secure) read their headers through req.get; a middleware that wraps or
// replaces it sees, and decides, those reads.
describe('the headers req reads through req.get (differential against express@5)', () => {
  const headers = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'fwd.example.org', 'X-Requested-With': 'XMLHttpRequest' }
  for (const trust of [false, true]) {
    for (const prop of ['host', 'hostname', 'subdomains', 'protocol', 'secure', 'xhr']) {
      it(`req.${prop}${trust ? ' behind a trusted proxy' : ''}: the same calls, and the wrapper's answers used`, async () => {
        const build = (lib: Lib) => {
          const app = lib()
          app.set('trust proxy', trust)
          app.use((req: any, res: any) => {
            const seen: string[] = []
            const get = req.get
            // a wrapper that notes each name and answers X-Forwarded-Host and Host itself
            req.get = function (this: any, name: string) {
              seen.push(name)
              return name === 'Host' ? 'sub.wrapped.example:81' : name === 'X-Forwarded-Host' ? 'a.fwd.example.net' : get.call(this, name)
            }
            const value = req[prop]
            res.end(JSON.stringify({ value, seen }))
          })
          return app
        }
        const ours = await listen(build(fw))
        const theirs = await listen(build(express))
        try {
          const [a, b] = await Promise.all([send(ours.port, { path: '/', headers }), send(theirs.port, { path: '/', headers })])
          expect(JSON.parse(a.body)).toEqual(JSON.parse(b.body))
          if (prop !== 'protocol' && prop !== 'secure' || trust) expect(JSON.parse(b.body).seen.length).toBeGreaterThan(0)
        } finally {
          await Promise.all([ours.close(), theirs.close()])
        }
      })
    }
  }
})

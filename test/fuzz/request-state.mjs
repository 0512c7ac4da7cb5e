// The request fuzzer for req's properties and methods: random headers (Host,
// X-Forwarded-*, Forwarded, Accept-*, Content-Type, Range, conditional
// headers, X-Requested-With), random query strings and random app settings
// (trust proxy, subdomain offset, query parser, case sensitive and strict
// routing); a route answers with every value req computes. Switchyard and
// express@5 must answer the same JSON.
//
//   npm run fuzz:request -- --seed N --cases M
//
// The bounded run in `npm test` is test/fuzz/request-state.test.ts.
import { createRequire } from 'node:module'
import { caseFuzzerMain, compareCases, rawExchange } from './state-support.mjs'

const require = createRequire(import.meta.url)

const HOSTS = ['example.com', 'a.b.example.com', 'EXAMPLE.com:8080', '[::1]:3000', '127.0.0.1', 'tobi.ferrets.example.co.uk', 'localhost', '', 'a..b.com', '[::1]']
const XFH = ['proxy.example.com', 'a.example.com, b.example.com', 'x.y.z:99', '[::2]:1', '']
const XFP = ['https', 'http', 'https, http', 'HTTPS', 'wss', '']
const XFF = ['10.0.0.1', '10.0.0.1, 10.0.0.2', '1.2.3.4, 10.0.0.1, 127.0.0.1', 'garbage', '::1, 2001:db8::1', '']
const ACCEPTS = ['text/html', 'application/json', 'text/*;q=0.5, application/json', '*/*', 'image/png, text/plain;q=0', 'application/json;q=0.2, text/html;q=0.9', 'nonsense', '']
const CHARSETS = ['utf-8', 'iso-8859-1;q=0.5, utf-8', '*', 'ascii;q=0', '']
const ENCODINGS = ['gzip', 'gzip, deflate, br', 'identity;q=0', '*;q=0', 'br;q=1, gzip;q=0.5', '']
const LANGUAGES = ['en', 'en-US, fr;q=0.5', 'fr-CA', '*', 'de;q=0', '']
const TYPES = ['application/json', 'text/html; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/vnd.api+json', 'text/plain', 'bogus']
const QUERIES = ['', '?a=1', '?a=1&a=2', '?a[b]=c&d[]=e', '?x=%zz', '?__proto__[p]=1', '?a.b=c&x', '?' + 'k=v&'.repeat(30), '?q=caf%C3%A9+ok', '?=x&y=']
const PATHS = ['/r', '/R', '/r/', '/r/sub']
const TRUST = [false, true, 'loopback', 1, 2, '10.0.0.0/8, loopback', (ip) => ip === '127.0.0.1']
const ASK_TYPES = [['html'], ['json', 'html'], ['text/*'], ['image/png', 'png'], []]
const RANGES = ['bytes=0-4', 'bytes=0-4,2-8', 'bytes=-5', 'bytes=90-', 'bytes=5-2', 'items=0-1', 'bytes=x']

export function generate(rng) {
  const headers = {}
  const maybe = (p, name, list) => { if (rng.next() < p) headers[name] = rng.pick(list) }
  headers.host = rng.pick(HOSTS)
  maybe(0.4, 'x-forwarded-host', XFH)
  maybe(0.4, 'x-forwarded-proto', XFP)
  maybe(0.4, 'x-forwarded-for', XFF)
  maybe(0.5, 'accept', ACCEPTS)
  maybe(0.3, 'accept-charset', CHARSETS)
  maybe(0.3, 'accept-encoding', ENCODINGS)
  maybe(0.3, 'accept-language', LANGUAGES)
  maybe(0.3, 'content-type', TYPES)
  maybe(0.2, 'range', RANGES)
  maybe(0.2, 'x-requested-with', ['XMLHttpRequest', 'xmlhttprequest', 'fetch'])
  maybe(0.2, 'if-none-match', ['*', 'W/"x"', '"x", W/"y"'])
  maybe(0.15, 'if-modified-since', ['Wed, 01 Jan 2031 00:00:00 GMT', 'nonsense'])
  maybe(0.1, 'cache-control', ['no-cache', 'max-age=0'])
  const settings = {}
  if (rng.next() < 0.6) settings['trust proxy'] = rng.pick(TRUST)
  if (rng.next() < 0.2) settings['subdomain offset'] = rng.pick([0, 1, 3])
  if (rng.next() < 0.3) settings['query parser'] = rng.pick(['simple', 'extended', false])
  if (rng.next() < 0.2) settings['case sensitive routing'] = true
  if (rng.next() < 0.2) settings['strict routing'] = true
  const ask = { types: rng.pick(ASK_TYPES), is: rng.pick([['json'], ['html', 'json'], ['application/*'], ['urlencoded'], ['multipart'], []]), fresh: rng.next() < 0.3 }
  return { method: rng.pick(['GET', 'GET', 'HEAD', 'POST']), path: rng.pick(PATHS) + rng.pick(QUERIES), headers, settings, ask }
}

function describe(req, ask) {
  const safe = (fn) => {
    try {
      const v = fn()
      return v === undefined ? '(undefined)' : v
    } catch (err) {
      return 'throws ' + (err && err.name)
    }
  }
  return {
    protocol: safe(() => req.protocol),
    secure: safe(() => req.secure),
    ip: safe(() => req.ip),
    ips: safe(() => req.ips),
    hostname: safe(() => req.hostname),
    host: safe(() => req.host),
    subdomains: safe(() => req.subdomains),
    path: safe(() => req.path),
    query: safe(() => JSON.parse(JSON.stringify(req.query))),
    queryProto: safe(() => (req.query && typeof req.query === 'object' ? Object.getPrototypeOf(req.query) === null : typeof req.query)),
    xhr: safe(() => req.xhr),
    fresh: safe(() => req.fresh),
    stale: safe(() => req.stale),
    accepts: safe(() => req.accepts(...ask.types)),
    acceptsCharsets: safe(() => req.acceptsCharsets('utf-8', 'iso-8859-1')),
    acceptsEncodings: safe(() => req.acceptsEncodings('gzip', 'br', 'identity')),
    acceptsLanguages: safe(() => req.acceptsLanguages('en', 'fr')),
    is: safe(() => req.is(...ask.is)),
    range: safe(() => req.range(50)),
    rangeCombined: safe(() => req.range(50, { combine: true })),
    get: [safe(() => req.get('Referrer')), safe(() => req.get('content-type')), safe(() => req.header('Host'))],
    params: safe(() => req.params),
    baseUrl: req.baseUrl,
    originalUrl: req.originalUrl
  }
}

export function build(lib, c) {
  const app = lib()
  app.set('env', 'production')
  for (const [name, value] of Object.entries(c.settings)) app.set(name, value)
  const handle = (req, res) => {
    if (c.ask.fresh) res.set('ETag', 'W/"x"')
    res.json(describe(req, c.ask))
  }
  app.all('/r', handle)
  const router = lib.Router()
  router.all('/sub', handle)
  app.use('/r', router)
  app.use((req, res) => res.status(404).json({ fell: true, ...describe(req, c.ask) }))
  app.use((err, req, res, next) => res.status(500).json({ error: err.message }))
  return app
}

/** One raw request (the Host header as generated, even empty or odd); the answer's status and body. */
async function exchange(port, c) {
  const lines = [`${c.method} ${c.path} HTTP/1.1`]
  for (const [k, v] of Object.entries(c.headers)) lines.push(`${k}: ${v}`)
  lines.push('Connection: close')
  if (c.method === 'POST') lines.push('Content-Length: 0')
  const raw = await rawExchange(port, lines.join('\r\n') + '\r\n\r\n')
  return raw.slice(9, 12) + ' ' + raw.slice(raw.indexOf('\r\n\r\n') + 4)
}

export async function runRequestFuzz({ seed = 1, cases = 300, switchyard = require('../../dist/index.cjs'), express = require('express') } = {}) {
  const { counts, differences } = await compareCases({
    seed, cases, generate, build, ours: switchyard, oracle: express, exchange,
    classify: (answer) => answer.slice(0, 3),
    show: (c) => ({ ...c, settings: { ...c.settings, 'trust proxy': String(c.settings['trust proxy']) } })
  })
  return { seed, cases, statuses: counts, differences }
}

if (import.meta.url === `file://${process.argv[1]}`) await caseFuzzerMain('request-state fuzz', runRequestFuzz, 'statuses')

// The response fuzzer: random sequences of response methods (status, set,
// setHeader, append, type, vary, cookie, clearCookie, location, links,
// attachment, res.locals) ending in a random way of answering (send of every
// body type, json, jsonp, sendStatus, redirect, end, format, sendFile,
// download, render), run by the same route on switchyard and on express@5
// (with random etag, json spaces, json escape, jsonp callback name and
// x-powered-by settings), for GET and HEAD requests with random conditional,
// Range, Accept and Referer headers. The status, every header but Date and
// X-Powered-By, in order, and the body bytes must be the same.
// In a third of the cases a middleware's spy wraps some of the response's
// methods (on the response, or on `app.response`), as instrumentation does,
// and the calls it sees (which method, with which arguments, nested in
// which) must be the same too.
//
//   npm run fuzz:response -- --seed N --cases M
//
// The bounded run in `npm test` is test/fuzz/response-state.test.ts.
import http from 'node:http'
import { createRequire } from 'node:module'
import { alternate, cliNumber, listen, random } from './state-support.mjs'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)

const CODES = [200, 201, 204, 206, 301, 304, 400, 404, 418, 500, 599]
const ODD_CODES = [99, 1000, 200.5, '201', 205]
const FIELDS = ['Content-Type', 'X-A', 'Cache-Control', 'Link', 'ETag', 'Last-Modified', 'Vary', 'Content-Disposition', 'x-a', 'Location']
const VALUES = ['text/plain', 'application/json; charset=utf-8', 'no-cache', '<http://a/>; rel="x"', 'W/"abc"', 'Tue, 01 Jan 2030 00:00:00 GMT', 'Accept', 'v1', '', 'text/html; charset=iso-8859-1', 'caf\u00e9', ['a', 'b']]
const TYPES = ['json', 'html', 'text/plain', 'png', 'application/octet-stream', 'unknownext', '.txt', 'text', 'bin']
const BODIES = [
  'hello', '', '<p>\u00e9t\u00e9</p>', 'x'.repeat(1200), Buffer.from('bytes'), Buffer.alloc(0), { a: 1, b: [1, 2] }, [1, 'two'], null, undefined, true, false, 42,
  { html: '<\u2028>' }, 'Hello World', new Uint8Array([104, 105]), new Uint16Array([0x4142, 0x4344]), new DataView(new ArrayBuffer(2))
]
const URLS = ['/next', 'http://example.com/a b', 'back', '//evil.example/', '/caf\u00e9?q=\u00e9', '/%zz', 'mailto:x@y']
const RAW_TYPES = ['unknownext', 'text/plain', 'application/json', 'text/html; charset=latin1', 'image/svg+xml', '']
const FILES_ROOT = fileURLToPath(new URL('../fixtures/res', import.meta.url))
const VIEWS = fileURLToPath(new URL('../fixtures/res/views', import.meta.url))
const FILES = ['hello.txt', 'page.html', 'data.json', 'with space.txt', '.secret', 'missing.txt', 'sub', '../static/secret.txt', 'README']
const FILE_OPTS = [{}, { dotfiles: 'allow' }, { maxAge: 1000 }, { headers: { 'X-F': '1' } }, { lastModified: false }, { etag: false }, { acceptRanges: false }, { cacheControl: false }, { immutable: true, maxAge: '1d' }]
/** The methods a spy may wrap: those Express's own methods call on the response, Express's and Node's. */
const SPIED = ['get', 'set', 'type', 'status', 'vary', 'format', 'location', 'append', 'cookie', 'links', 'attachment', 'json', 'send', 'sendStatus', 'setHeader', 'getHeader', 'removeHeader', 'hasHeader', 'writeHead', 'end']
const COOKIE_OPTS = [{}, { path: '/a' }, { httpOnly: true, secure: true }, { sameSite: 'strict' }, { domain: 'example.com' }, { expires: new Date(Date.UTC(2030, 0, 1)) }, { encode: String }, { priority: 'high' }]

/** One random case: the calls the route makes, and the request. */
export function generate(rng) {
  const calls = []
  const n = Math.floor(rng.next() * 5)
  for (let i = 0; i < n; i++) {
    const r = rng.next()
    if (r < 0.12) calls.push(['status', rng.pick(CODES)])
    else if (r < 0.15) calls.push(rng.next() < 0.5 ? ['status', rng.pick(ODD_CODES)] : ['setHeader', 'Content-Type', rng.pick(RAW_TYPES)])
    else if (r < 0.35) calls.push(['set', rng.pick(FIELDS), rng.pick(VALUES)])
    else if (r < 0.45) calls.push(['append', rng.pick(['X-A', 'Set-Cookie', 'Link', 'Vary']), rng.pick(VALUES)])
    else if (r < 0.55) calls.push(['type', rng.pick(TYPES)])
    else if (r < 0.62) calls.push(['vary', rng.pick(['Accept', 'Origin, Accept', '*', 'accept-encoding'])])
    else if (r < 0.72) calls.push(['cookie', rng.pick(['sid', 'a b', 'c']), rng.pick(['v', { x: 1 }, '\u00e9']), rng.pick(COOKIE_OPTS)])
    else if (r < 0.77) calls.push(['clearCookie', rng.pick(['sid', 'c']), rng.pick(COOKIE_OPTS)])
    else if (r < 0.84) calls.push(['location', rng.pick([...URLS, ''])])
    else if (r < 0.9) calls.push(['links', { next: '/n', last: '/l' }])
    else if (r < 0.96) calls.push(['attachment', rng.pick([undefined, 'report.pdf', 'r\u00e9sum\u00e9.txt', ''])])
    else if (r < 0.98) calls.push(['local', rng.pick(['name', 'site', 'title']), rng.pick(['Local', '<i>x</i>', 42])])
    else calls.push([rng.pick(['wrapEnd', 'wrapWriteHead'])])
  }
  const r = rng.next()
  let end
  if (r < 0.4) end = ['send', rng.pick(BODIES)]
  else if (r < 0.55) end = ['json', rng.pick(BODIES)]
  else if (r < 0.62) end = ['jsonp', rng.pick(BODIES)]
  else if (r < 0.72) end = ['sendStatus', rng.pick(CODES)]
  else if (r < 0.82) end = rng.next() < 0.5 ? ['redirect', rng.pick(URLS)] : ['redirect', rng.pick([301, 302, 307]), rng.pick(URLS)]
  else if (r < 0.86) end = ['end', rng.pick(['done', '', undefined])]
  else if (r < 0.91) end = ['format', rng.pick(['json', 'html', 'none'])]
  else if (r < 0.95) end = ['sendFile', rng.pick(FILES), { root: FILES_ROOT, ...rng.pick(FILE_OPTS) }]
  else if (r < 0.98) end = ['render', rng.pick(['user', 'user.ejs', 'broken', 'missing']), rng.pick([{ name: 'Ann' }, { name: '<b>&' }, {}, undefined])]
  else end = ['download', rng.pick(FILES), rng.pick([undefined, 'r\u00e9sum\u00e9.txt', 'report.pdf']), { root: FILES_ROOT, ...rng.pick(FILE_OPTS) }]
  const headers = {}
  if (rng.next() < 0.3) headers['if-none-match'] = rng.pick(['*', 'W/"5-qvTGHdzF6KLavt4PO0gs2a6pQ00"', 'W/"b-Ck1VqNd45QIvq3AZd8XYQLvEhtA"', '"x"', 'W/"abc"'])
  if (rng.next() < 0.15) headers['if-modified-since'] = rng.pick(['Wed, 01 Jan 2031 00:00:00 GMT', 'Mon, 01 Jan 2001 00:00:00 GMT'])
  if (rng.next() < 0.4) headers.accept = rng.pick(['application/json', 'text/html', 'text/plain', 'image/png', '*/*', 'text/html;q=0.1, application/json'])
  if (rng.next() < 0.3) headers.referer = rng.pick(['/from', 'http://example.com/ref'])
  if (rng.next() < 0.2) headers.range = rng.pick(['bytes=0-3', 'bytes=5-', 'bytes=-2', 'bytes=9-99', 'bytes=0-1,3-4', 'bytes=x', 'bytes=50-60'])
  if (headers.range && rng.next() < 0.3) headers['if-range'] = rng.pick(['W/"x"', 'Wed, 01 Jan 2031 00:00:00 GMT'])
  const settings = {}
  if (rng.next() < 0.3) settings.etag = rng.pick([false, 'strong', 'weak', true])
  if (rng.next() < 0.2) settings['json spaces'] = rng.pick([2, '\t', 0])
  if (rng.next() < 0.2) settings['json escape'] = true
  if (rng.next() < 0.1) settings['jsonp callback name'] = 'cb'
  if (rng.next() < 0.1) settings['x-powered-by'] = false
  const method = rng.next() < 0.25 ? 'HEAD' : 'GET'
  const path = rng.next() < 0.3 ? '/case?callback=' + rng.pick(['cb', 'a.b', 'x[0]', '<bad>', '']) : '/case'
  let spy
  if (rng.next() < 0.33) {
    const names = SPIED.filter(() => rng.next() < 0.3)
    spy = { on: rng.pick(['res', 'proto']), names: names.length > 0 ? names : [rng.pick(SPIED)] }
  }
  return { settings, calls, end, spy, request: { method, path, headers } }
}

/** A body logger's res.end: what it is called with goes into headers, set from inside it. */
function wrapEnd(res) {
  const end = res.end
  res.end = function (chunk, encoding) {
    if (!this.headersSent) {
      const kind = chunk === undefined || chunk === null ? String(chunk) : typeof chunk + ':' + (chunk.constructor && chunk.constructor.name)
      this.setHeader('X-End', kind + '/' + String(encoding) + '/' + arguments.length)
      let logged
      try {
        logged = typeof chunk === 'function' || chunk == null ? '' : Buffer.concat([chunk]).toString('base64')
      } catch (err) {
        logged = 'cannot log: ' + err.code
      }
      this.setHeader('X-Logged', logged)
    }
    return end.apply(this, arguments)
  }
}

/** An on-headers listener's writeHead: sets a header, and a Content-Disposition with a latin1 byte ahead of Content-Length. */
function wrapWriteHead(res) {
  const writeHead = res.writeHead
  res.writeHead = function (...args) {
    const length = this.getHeader('Content-Length')
    this.removeHeader('Content-Length')
    this.setHeader('X-Head', String(this.statusCode))
    this.setHeader('Content-Disposition', 'inline; filename="r\u00e9sum\u00e9.txt"')
    if (length !== undefined) this.setHeader('Content-Length', length)
    return writeHead.apply(this, args)
  }
}

/** An argument as the spy notes it. */
function shown(value) {
  if (Buffer.isBuffer(value)) return 'Buffer:' + value.toString('base64')
  if (typeof value === 'function') return 'function'
  if (typeof value === 'string') return JSON.stringify(value)
  if (value && typeof value === 'object') {
    try {
      return (value.constructor ? value.constructor.name : 'null') + JSON.stringify(value)
    } catch {
      return 'unserialisable'
    }
  }
  return String(value)
}

/** Wrap `names` on `target` with a spy noting each call in `log`, indented by how deep in other spied calls it is. */
function spyOn(target, names, log) {
  const depth = { n: 0 }
  for (const name of names) {
    const original = target[name]
    target[name] = function (...args) {
      log.push('  '.repeat(depth.n) + name + '(' + args.map(shown).join(', ') + ')')
      depth.n++
      try {
        return original.apply(this, args)
      } finally {
        depth.n--
      }
    }
  }
}

function handler(c, log) {
  return (req, res) => {
    if (c.spy && c.spy.on === 'res') spyOn(res, c.spy.names, log)
    for (const [name, ...args] of c.calls) {
      if (name === 'local') res.locals[args[0]] = args[1]
      else if (name === 'wrapEnd') wrapEnd(res)
      else if (name === 'wrapWriteHead') wrapWriteHead(res)
      else res[name](...args)
    }
    const [name, ...args] = c.end
    if (name === 'format') {
      const which = args[0]
      const formats = which === 'json' ? { json: () => res.send({ j: 1 }) } : which === 'html' ? { html: () => res.send('<b>h</b>'), text: () => res.send('t') } : { 'image/gif': () => res.send('g') }
      res.format(formats)
    } else {
      res[name](...args)
    }
  }
}

export function build(lib, c, log = []) {
  const app = lib()
  if (c.spy && c.spy.on === 'proto') spyOn(app.response, c.spy.names, log)
  app.set('env', 'production')
  for (const [name, value] of Object.entries(c.settings)) app.set(name, value)
  app.set('views', VIEWS)
  app.set('view engine', 'ejs')
  app.locals.site = 'Site'
  app.locals.title = 'Title'
  app.get('/case', handler(c, log))
  app.use((err, req, res, next) => res.status(599).send('error: ' + err.message))
  return app
}

function send(port, r) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: r.method, path: r.path, headers: r.headers, agent: false }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => {
        const headers = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i].toLowerCase()
          if (name !== 'date' && name !== 'x-powered-by') headers.push(res.rawHeaders[i] + ': ' + Buffer.from(res.rawHeaders[i + 1], 'latin1').toString('latin1'))
        }
        resolve({ status: res.statusCode, headers, body: Buffer.concat(chunks).toString('latin1') })
      })
    })
    req.on('error', (err) => resolve({ status: 'error ' + err.code }))
    // a case whose handler throws where nothing catches it (both libraries
    // let it go, as from a render callback: counted in `uncaught`) gets no
    // answer: give up on it rather than wait forever
    req.setTimeout(3000, () => {
      resolve({ status: 'no answer' })
      req.destroy()
    })
    req.end()
  })
}

/** Run `cases` random cases from `seed` on both; returns counts and the first differences. */
export async function runResponseFuzz({ seed = 1, cases = 200, switchyard = require('../../dist/index.cjs'), express = require('express') } = {}) {
  const rng = random(seed)
  const differences = []
  const statuses = {}
  const ends = {}
  const uncaught = []
  let spied = 0
  const onUncaught = (err) => uncaught.push(String(err && err.stack || err))
  process.on('uncaughtException', onUncaught)
  // an error handler that throws again reaches the final handler, which logs
  // the error (both libraries do); count those lines instead of printing them
  const consoleError = console.error
  let logged = 0
  console.error = () => { logged++ }
  try {
    for (let i = 0; i < cases; i++) {
      const c = generate(rng)
      const logs = [[], []]
      const ours = await listen(alternate(build(switchyard, c, logs[0]), i))
      const theirs = await listen(alternate(build(express, c, logs[1]), i))
      try {
        const [x, y] = await Promise.all([send(ours.address().port, c.request), send(theirs.address().port, c.request)])
        if (c.spy) {
          x.calls = logs[0]
          y.calls = logs[1]
          spied += logs[1].length
        }
        statuses[x.status] = (statuses[x.status] ?? 0) + 1
        ends[c.end[0]] = (ends[c.end[0]] ?? 0) + 1
        if (JSON.stringify(x) !== JSON.stringify(y) && differences.length < 10) differences.push({ case: i, c, switchyard: x, express: y })
      } finally {
        ours.close()
        theirs.close()
      }
    }
  } finally {
    process.off('uncaughtException', onUncaught)
    console.error = consoleError
  }
  return { seed, cases, statuses, ends, differences, uncaught, logged, spied }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runResponseFuzz({ seed: cliNumber('seed', 1), cases: cliNumber('cases', 1000) })
  console.log(`response fuzz seed ${report.seed}: ${report.cases} cases`)
  console.log('statuses:', JSON.stringify(report.statuses), 'ends:', JSON.stringify(report.ends))
  console.log('calls seen by spies:', report.spied, 'uncaught:', report.uncaught.length, 'errors logged by the final handlers:', report.logged, 'differences:', report.differences.length)
  for (const d of report.differences.slice(0, 4)) console.log(JSON.stringify(d).slice(0, 2500))
  process.exitCode = report.differences.length === 0 && report.uncaught.length === 0 ? 0 : 1
}

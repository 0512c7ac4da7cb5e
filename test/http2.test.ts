// HTTP/2 through Node's compatibility API: the same app, given to
// http2.createSecureServer({ allowHTTP1: true }), http2.createSecureServer()
// and http2.createServer() (h2c), answers every request of one matrix over
// HTTP/2 exactly as it answers it over HTTP/1.1 (status, headers except those
// HTTP/2 forbids, body).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import http from 'node:http'
import http2 from 'node:http2'
import { EventEmitter } from 'node:events'
import Stream, { Readable } from 'node:stream'
import { join } from 'node:path'
import { deflateSync, gzipSync } from 'node:zlib'
import fw from '../src/index'
import { KINDS, comparable, sameAnswers, serve, type Pair, type Req } from './support/http2'

const root = join(__dirname, 'fixtures/static/root')

function build() {
  const app = fw()
  // error pages without stack traces: the class names in them differ between the protocols
  app.set('env', 'production')
  app.set('trust proxy', 'loopback')
  ;(app.request as any).fromApp = 'app-request'
  ;(app.response as any).shout = function (this: any, text: string) { return this.send(text.toUpperCase()) }

  app.use('/static', fw.static(root))
  app.use('/static-strict', fw.static(root, { fallthrough: false }))
  app.use(fw.json({ limit: '1kb' }))
  app.use(fw.urlencoded({ extended: true }))
  app.use(fw.text())
  app.use(fw.raw({ type: 'application/octet-stream' }))

  app.all('/dump{/:rest}', (req: any, res: any) => {
    res.json({
      method: req.method,
      url: req.url,
      originalUrl: req.originalUrl,
      baseUrl: req.baseUrl,
      path: req.path,
      query: req.query,
      params: req.params,
      protocol: req.protocol,
      secure: req.secure,
      ip: req.ip,
      ips: req.ips,
      hostname: req.hostname,
      hostIsLocal: req.host === req.hostname + ':' + req.socket.localPort,
      subdomains: req.subdomains,
      fresh: req.fresh,
      stale: req.stale,
      xhr: req.xhr,
      accepts: req.accepts(['json', 'html']),
      acceptsEncodings: req.acceptsEncodings('gzip', 'br'),
      acceptsLanguages: req.acceptsLanguages(),
      acceptsCharsets: req.acceptsCharsets('utf-8'),
      is: req.is('json', 'urlencoded', 'text/*'),
      get: req.get('X-Test') ?? null,
      referrer: req.get('Referrer') ?? null,
      range: req.range(100) ?? null,
      body: Buffer.isBuffer(req.body) ? 'buffer:' + req.body.toString('hex') : req.body === undefined ? 'undefined' : req.body,
      extension: req.fromApp,
      linked: req.res === res && res.req === req && req.app === app && res.app === app,
      locals: typeof res.locals
    })
  })

  app.get('/send/string', (req: any, res: any) => res.send('<p>hello</p>'))
  app.get('/send/buffer', (req: any, res: any) => res.send(Buffer.from('bytes')))
  app.get('/send/json', (req: any, res: any) => res.json({ ok: true, list: [1, 2] }))
  app.get('/send/jsonp', (req: any, res: any) => res.jsonp({ ok: true }))
  app.get('/send/status', (req: any, res: any) => res.sendStatus(201))
  app.get('/send/204', (req: any, res: any) => res.status(204).send('ignored'))
  app.get('/send/shout', (req: any, res: any) => res.shout('quiet'))
  app.get('/send/headers', (req: any, res: any) => {
    res.set({ 'X-One': '1', 'X-Many': ['a', 'b'] }).append('X-Many', 'c').vary('Accept').links({ next: '/p/2' })
    res.type('txt').send('headers')
  })
  app.get('/send/format', (req: any, res: any) => res.format({ text: () => res.send('text'), json: () => res.json('json') }))
  app.get('/send/forbidden', (req: any, res: any) => {
    res.set({ Connection: 'close', 'Keep-Alive': 'timeout=5', 'Proxy-Connection': 'x', Upgrade: 'h2c', TE: 'gzip', 'X-Kept': 'yes' })
    res.append('Keep-Alive', 'max=2')
    res.send('forbidden headers dropped')
  })
  app.get('/send/forbidden-writehead', (req: any, res: any) => {
    res.writeHead(200, { 'Transfer-Encoding': 'chunked', 'Content-Type': 'text/plain', 'X-Kept': 'yes' })
    res.end('streamed')
  })
  app.get('/send/forbidden-error', (req: any, res: any, next: any) => {
    next(Object.assign(new Error('with headers'), { status: 503, headers: { 'Keep-Alive': 'timeout=1', 'Retry-After': '5' } }))
  })
  app.get('/redirect', (req: any, res: any) => res.redirect('/target?a=1'))
  app.get('/redirect/301', (req: any, res: any) => res.redirect(301, 'https://example.com/<x>'))
  app.get('/cookie', (req: any, res: any) => {
    res.cookie('a', '1', { httpOnly: true, path: '/x' })
    res.cookie('b', { j: 2 }, { maxAge: 60_000, sameSite: 'lax' })
    res.clearCookie('old')
    res.send('cookies')
  })
  app.get('/file/:name', (req: any, res: any) => res.sendFile(req.params.name, { root }))
  app.get('/file-missing', (req: any, res: any) => res.sendFile(join(root, 'nope.txt')))
  app.get('/file-cb', (req: any, res: any) => res.sendFile(join(root, 'nope.txt'), (err: any) => res.status(err.status).send('cb: ' + err.code)))
  app.get('/download', (req: any, res: any) => res.download(join(root, 'todo.txt'), 'list.txt'))

  app.get('/users/:id', (req: any, res: any, next: any) => (req.params.id === 'skip' ? next('route') : res.send('user ' + req.params.id)))
  app.get('/users/:id', (req: any, res: any) => res.send('second route'))
  const router = fw.Router({ mergeParams: true })
  router.get('/items/:item', (req: any, res: any) => res.json(req.params))
  app.use('/shop/:shop', router)

  const sub = fw()
  ;(sub.request as any).fromApp = 'sub-request'
  sub.get('/hello', (req: any, res: any) => res.send('sub ' + req.fromApp + ' ' + (req.app === sub) + ' ' + req.baseUrl))
  sub.get('/pass', (req: any, res: any, next: any) => next())
  app.use('/sub', sub)
  // after the mounted app hands back, req and res are the parent's again
  app.get('/sub/pass', (req: any, res: any) => res.send('parent ' + req.fromApp + ' ' + (req.app === app) + ' ' + (res.app === app)))

  app.get('/throw', () => { throw new Error('boom') })
  app.get('/reject', async () => { throw Object.assign(new Error('teapot'), { status: 418, headers: { 'X-Err': 'yes' } }) })
  app.get('/handled', (req: any, res: any, next: any) => next(new Error('to handler')))
  app.use('/handled', (err: any, req: any, res: any, next: any) => res.status(500).json({ handled: err.message }))
  return app
}

/** The request matrix: every request is sent over HTTP/1.1 and over HTTP/2 and the answers compared. */
const matrix: Array<[string, Req]> = [
  ['GET a string', { path: '/send/string' }],
  ['HEAD a string', { method: 'HEAD', path: '/send/string' }],
  ['GET a Buffer', { path: '/send/buffer' }],
  ['GET json', { path: '/send/json' }],
  ['GET jsonp', { path: '/send/jsonp?callback=cb' }],
  ['sendStatus', { path: '/send/status' }],
  ['204 strips the body', { path: '/send/204' }],
  ['app.response extension', { path: '/send/shout' }],
  ['set/append/vary/links/type', { path: '/send/headers' }],
  ['connection-specific headers set by the app', { path: '/send/forbidden' }],
  ['connection-specific headers in writeHead', { path: '/send/forbidden-writehead' }],
  ['connection-specific headers of an error', { path: '/send/forbidden-error' }],
  ['format: text', { path: '/send/format', headers: { accept: 'text/plain' } }],
  ['format: 406', { path: '/send/format', headers: { accept: 'image/png' } }],
  ['redirect (html)', { path: '/redirect', headers: { accept: 'text/html' } }],
  ['redirect (text)', { path: '/redirect', headers: { accept: 'text/plain' } }],
  ['redirect 301, HEAD', { method: 'HEAD', path: '/redirect/301' }],
  ['cookies', { path: '/cookie' }],
  ['sendFile', { path: '/file/todo.txt' }],
  ['sendFile HEAD', { method: 'HEAD', path: '/file/todo.txt' }],
  ['sendFile with a Range', { path: '/file/nums.txt', headers: { range: 'bytes=2-5' } }],
  ['sendFile with two Ranges', { path: '/file/nums.txt', headers: { range: 'bytes=0-1,4-6' } }],
  ['sendFile, unsatisfiable Range', { path: '/file/nums.txt', headers: { range: 'bytes=900-' } }],
  ['sendFile, missing file (final handler)', { path: '/file-missing' }],
  ['sendFile, callback', { path: '/file-cb' }],
  ['sendFile, dotfile ignored', { path: '/file/.hidden' }],
  ['download', { path: '/download' }],
  ['static file', { path: '/static/page.txt' }],
  ['static HEAD', { method: 'HEAD', path: '/static/style.css' }],
  ['static Range', { path: '/static/nums.txt', headers: { range: 'bytes=-3' } }],
  ['static index', { path: '/static/users/' }],
  ['static directory redirect', { path: '/static/users?x=1' }],
  ['static encoded name', { path: '/static/caf%C3%A9.txt' }],
  ['static miss falls through to 404', { path: '/static/nope.txt' }],
  ['static without fallthrough: 404', { path: '/static-strict/nope.txt' }],
  ['static without fallthrough: 405', { method: 'POST', path: '/static-strict/page.txt' }],
  ['route params', { path: '/users/42' }],
  ["next('route')", { path: '/users/skip' }],
  ['mergeParams router', { path: '/shop/s1/items/i9' }],
  ['mounted app', { path: '/sub/hello' }],
  ['mounted app hands back', { path: '/sub/pass' }],
  ['404', { path: '/nowhere?q=<b>' }],
  ['404 for POST with an unread body', { method: 'POST', path: '/nowhere', headers: { 'content-type': 'image/png' }, body: 'x'.repeat(5000) }],
  ['thrown error', { path: '/throw' }],
  ['rejected promise with status and headers', { path: '/reject' }],
  ['error handler', { path: '/handled' }],
  ['req properties', { path: '/dump/a/b?x=1&y=two&y=3', headers: { 'x-test': 'hi', referer: 'https://ref.example/', 'x-requested-with': 'XMLHttpRequest', 'accept-language': 'fr, en;q=0.5', range: 'bytes=0-9' } }],
  ['req properties with trusted forwarding headers', { path: '/dump', headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.1', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.shop.example.com' } }],
  ['req.host and req.hostname from a Host header', { path: '/dump', headers: { host: 'tobi.ferrets.example.com:8080' } }],
  ['HEAD /dump', { method: 'HEAD', path: '/dump' }],
  ['json body', { method: 'POST', path: '/dump', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: [1, 2], b: 'é' }) }],
  ['json body in chunks, no Content-Length', { method: 'PUT', path: '/dump', headers: { 'content-type': 'application/json' }, body: ['{"a":', '[1,', '2]}'] }],
  ['json body, gzip', { method: 'POST', path: '/dump', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(JSON.stringify({ zipped: true })) }],
  ['json body, deflate, no Content-Length', { method: 'POST', path: '/dump', headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' }, body: [deflateSync('{"z":1}')] }],
  ['json body over the limit', { method: 'POST', path: '/dump', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ big: 'x'.repeat(2000) }) }],
  ['json body over the limit, no Content-Length', { method: 'POST', path: '/dump', headers: { 'content-type': 'application/json' }, body: ['{"big":"', 'x'.repeat(2000), '"}'] }],
  ['json body, invalid', { method: 'POST', path: '/dump', headers: { 'content-type': 'application/json' }, body: '{"a":' }],
  ['json body, unsupported encoding', { method: 'POST', path: '/dump', headers: { 'content-type': 'application/json', 'content-encoding': 'zz' }, body: '{}' }],
  ['urlencoded body', { method: 'POST', path: '/dump', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a[b]=1&c=2&c=3' }],
  ['text body', { method: 'POST', path: '/dump', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'plain text' }],
  ['text body, latin1', { method: 'POST', path: '/dump', headers: { 'content-type': 'text/plain; charset=iso-8859-1' }, body: Buffer.from([0x63, 0x61, 0x66, 0xe9]) }],
  ['raw body', { method: 'POST', path: '/dump', headers: { 'content-type': 'application/octet-stream' }, body: [Buffer.from([1, 2]), Buffer.from([3])] }],
  ['DELETE with a json body', { method: 'DELETE', path: '/dump', headers: { 'content-type': 'application/json', 'content-length': '7' }, body: '{"d":1}' }]
]

describe.each(KINDS)('HTTP/2 on %s', (kind) => {
  const pair = sameAnswers(build, kind, matrix)

  it('answers conditional requests with 304, as over HTTP/1.1', async () => {
    for (const path of ['/send/string', '/file/todo.txt', '/static/page.txt']) {
      const first = await pair.h1({ path })
      for (const headers of [{ 'if-none-match': first.headers.etag as string }, { 'if-modified-since': first.headers['last-modified'] ?? new Date().toUTCString() }]) {
        const one = await pair.h1({ path, headers })
        const two = await pair.h2({ path, headers })
        expect(comparable(two)).toEqual(comparable(one))
        if ('if-none-match' in headers || first.headers['last-modified']) expect(two.status).toBe(304)
      }
    }
  })

  it('sees req.protocol and req.secure from the connection', async () => {
    const two = JSON.parse((await pair.h2({ path: '/dump' })).body.toString())
    expect(two.protocol).toBe(kind === 'h2c' ? 'http' : 'https')
    expect(two.secure).toBe(kind !== 'h2c')
  })

  it('takes req.host and req.hostname from :authority when there is no Host header', async () => {
    const two = JSON.parse((await pair.h2({ path: '/dump' })).body.toString())
    expect(two.hostname).toBe('127.0.0.1')
    expect(two.hostIsLocal).toBe(true)
    expect(two.subdomains).toEqual([])
  })

  it('serves many concurrent streams on one session', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => pair.h2({ path: '/users/' + i })))
    expect(answers.map((a) => a.body.toString())).toEqual(Array.from({ length: 30 }, (_, i) => 'user ' + i))
  })
})

describe('HTTP/2 errors after the headers were sent', () => {
  let pair: Pair
  beforeAll(async () => {
    const app = fw()
    app.set('env', 'test')
    app.get('/partial', (req: any, res: any, next: any) => {
      res.write('partial ')
      setImmediate(() => next(new Error('late')))
    })
    app.get('/ok', (req: any, res: any) => res.send('still here'))
    pair = await serve(app, 'secure+http1')
  })
  afterAll(async () => { await pair.close() })

  it('resets the stream, not the session, and the server keeps serving', async () => {
    const session = pair.session()
    const err: any = await pair.h2({ path: '/partial' }).then(() => null, (e) => e)
    expect(err).not.toBeNull()
    expect(err.status).toBe(200)
    expect(err.rstCode).toBe(http2.constants.NGHTTP2_INTERNAL_ERROR)
    // the same session still works
    expect(pair.session()).toBe(session)
    expect((await pair.h2({ path: '/ok' })).body.toString()).toBe('still here')
    // and HTTP/1.1 behaves as before: the connection is destroyed
    const err1: any = await pair.h1({ path: '/partial' }).then(() => null, (e) => e)
    expect(err1).not.toBeNull()
    expect((await pair.h1({ path: '/ok' })).body.toString()).toBe('still here')
  })
})

describe('HTTP/2 request and response objects', () => {
  let pair: Pair
  let app: any
  let seen: any
  beforeAll(async () => {
    app = fw()
    app.get('/objects', (req: any, res: any) => {
      seen = { req, res }
      res.json({
        reqH2: req.constructor === http2.Http2ServerRequest && req.httpVersionMajor === 2 && req.stream instanceof EventEmitter,
        resH2: res.constructor === http2.Http2ServerResponse && res.stream === req.stream,
        chain: app.request.isPrototypeOf(req) && fw.request.isPrototypeOf(req) && app.response.isPrototypeOf(res),
        // HTTP/1.1-only members are not reachable; Readable's and Stream's are
        http1Only: [typeof req._addHeaderLines, typeof res._writeRaw, typeof res._implicitHeader, req._destroy === Readable.prototype._destroy, res.pipe === Stream.prototype.pipe].join(),
        later: req.later ?? null,
        base: req.fromBase ?? null,
        resLater: typeof res.later === 'function' ? res.later() : null,
        get: req.get('x-a'),
        authority: req.headers[':authority'] !== undefined
      })
    })
    pair = await serve(app, 'secure+http1')
  })
  afterAll(async () => {
    delete (fw.request as any).fromBase
    await pair.close()
  })

  const objects = async () => JSON.parse((await pair.h2({ path: '/objects', headers: { 'x-a': 'A' } })).body.toString())

  it('are Http2ServerRequest / Http2ServerResponse objects on the app chain, with the app linked', async () => {
    expect(await objects()).toEqual({ reqH2: true, resH2: true, chain: true, http1Only: 'undefined,undefined,function,true,true', later: null, base: null, resLater: null, get: 'A', authority: true })
    expect(seen.req.app).toBe(app)
    expect(seen.res.app).toBe(app)
    expect(seen.req.res).toBe(seen.res)
    expect(seen.res.req).toBe(seen.req)
  })

  it('see app.request, app.response and fw.request extensions added after the first request', async () => {
    await objects()
    app.request.later = 'added later'
    app.response.later = function (this: any) { return 'res ' + this.statusCode }
    ;(fw.request as any).fromBase = 'from fw.request'
    expect(await objects()).toMatchObject({ later: 'added later', base: 'from fw.request', resLater: 'res 200' })
    // a replaced or removed extension shows at once too
    app.request.later = 'replaced'
    delete (fw.request as any).fromBase
    expect(await objects()).toMatchObject({ later: 'replaced', base: null })
    // an app.request override of a built-in method wins, as over HTTP/1.1
    app.request.get = function () { return 'overridden' }
    expect((await objects()).get).toBe('overridden')
    delete app.request.get
    expect((await objects()).get).toBe('A')
    delete app.request.later
    delete app.response.later
  })

  it('assigning on req works as over HTTP/1.1', async () => {
    app.request.flag = 'proto'
    app.get('/assign', (req: any, res: any) => {
      req.url = '/changed?x=1' // the Http2ServerRequest setter
      req.flag = 'mine' // a data property of app.request: becomes the request's own
      const own = Object.prototype.hasOwnProperty.call(req, 'flag')
      let threw = false
      try { req.query = {} } catch { threw = true } // getter only: throws in strict code
      res.json({ url: req.url, path: req.path, query: req.query, flag: req.flag, own, threw, proto: app.request.flag })
    })
    const two = JSON.parse((await pair.h2({ path: '/assign' })).body.toString())
    const one = JSON.parse((await pair.h1({ path: '/assign' })).body.toString())
    expect(two).toEqual(one)
    expect(two).toEqual({ url: '/changed?x=1', path: '/changed', query: { x: '1' }, flag: 'mine', own: true, threw: true, proto: 'proto' })
    delete app.request.flag
  })

  it('lists the same enumerable request members as over HTTP/1.1', async () => {
    app.get('/keys', (req: any, res: any) => {
      const keys: string[] = []
      // the members the app chain adds (Node's own differ between the two classes)
      for (const k in req) if (k in app.request && !(k in http.IncomingMessage.prototype)) keys.push(k)
      res.json(keys.sort())
    })
    expect((await pair.h2({ path: '/keys' })).body.toString()).toBe((await pair.h1({ path: '/keys' })).body.toString())
  })
})

describe('HTTP/2 with sub-apps whose prototypes change', () => {
  it('follows a sub-app mounted after the first request', async () => {
    const app = fw()
    ;(app.request as any).who = 'parent'
    const sub = fw()
    sub.get('/', (req: any, res: any) => res.send(String(req.who) + '/' + String(req.own)))
    app.get('/', (req: any, res: any) => res.send('root ' + req.who))
    const pair = await serve(app, 'h2c')
    try {
      expect((await pair.h2({ path: '/' })).body.toString()).toBe('root parent')
      app.use('/sub', sub) // sub.request now inherits from app.request
      expect((await pair.h2({ path: '/sub' })).body.toString()).toBe('parent/undefined')
      ;(sub.request as any).own = 'sub'
      expect((await pair.h2({ path: '/sub' })).body.toString()).toBe('parent/sub')
      expect((await pair.h1({ path: '/sub' })).body.toString()).toBe('parent/sub')
    } finally {
      await pair.close()
    }
  })
})

describe('HTTP/1.1 on an HTTP/2 server with allowHTTP1', () => {
  it('still gives requests the app prototypes', async () => {
    const app = fw()
    app.get('/', (req: any, res: any) => res.json([Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response, req.httpVersion]))
    const pair = await serve(app, 'secure+http1')
    try {
      for (let i = 0; i < 3; i++) expect(JSON.parse((await pair.h1({ path: '/' })).body.toString())).toEqual([true, true, '1.1'])
      expect(JSON.parse((await pair.h2({ path: '/' })).body.toString())).toEqual([false, false, '2.0'])
    } finally {
      await pair.close()
    }
  })
})

// Differential tests for the last differences found against express@5.3 /
// router@2.2 (issue 11): each builds the same app on both, sends the same
// request, and compares what a client or a middleware can observe.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import net, { type AddressInfo } from 'node:net'
import { inspect } from 'node:util'
import { createRequire } from 'node:module'
import { createHook } from 'node:async_hooks'
import express from 'express'
import listEndpoints from 'express-list-endpoints'
import parseurl from 'parseurl'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import fw from '../../src/index'
import { listen, request, type RawRequest } from '../support/diff'
import { both, bothWith, reportErrors } from '../support/res-diff'

type Lib = any

/** Run `build` on an app of each library, send `req` to both, return both answers and what `build` recorded. */
async function recorded(build: (app: any, lib: Lib, record: (v: unknown) => void) => void, req: RawRequest) {
  const out: Record<string, { answer: unknown; records: unknown[] }> = {}
  for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
    const records: unknown[] = []
    const app = (lib as Lib)()
    build(app, lib, (v) => records.push(v))
    const server = await listen(app)
    try {
      const answer = await request(server.port, req)
      const { date: _d, 'x-powered-by': _x, ...headers } = answer.headers
      out[name] = { answer: { status: answer.status, headers, body: answer.body }, records }
    } finally {
      await server.close()
    }
  }
  return out
}

describe('a handler whose promise rejects with a falsy value', () => {
  const values: Array<[string, unknown]> = [['undefined', undefined], ['null', null], ['0', 0], ["''", ''], ['false', false]]
  for (const [label, value] of values) {
    it(`middleware rejecting with ${label} reaches the error handlers`, async () => {
      const r = await both((app) => {
        app.use(() => Promise.reject(value))
        app.get('/', (req: any, res: any) => res.send('carried on'))
        app.use(reportErrors)
      }, { path: '/' })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.body).toContain('Rejected promise')
    })
    it(`route handler rejecting with ${label} reaches the error handlers`, async () => {
      const r = await both((app) => {
        app.get('/', async () => { throw value }, (req: any, res: any) => res.send('carried on'))
        app.use(reportErrors)
      }, { path: '/' })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.status).toBe(500)
    })
    it(`error handler rejecting with ${label} passes a new error on`, async () => {
      const r = await both((app) => {
        app.get('/', () => { throw new Error('first') })
        app.use((err: any, req: any, res: any, next: any) => Promise.reject(value))
        app.use(reportErrors)
      }, { path: '/' })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.body).toContain('Rejected promise')
    })
  }
})

describe('a handler returning a thenable that calls its callbacks without checking them', () => {
  /** A thenable that calls the fulfilment callback whatever it was given, then `after`. */
  const sloppy = (after: () => void) => ({ then(onFulfilled: any) { onFulfilled('value'); after() } })
  const throwing = () => ({ then() { throw new Error('then threw') } })
  const cases: Array<[string, (app: any) => void]> = [
    ['middleware', (app) => {
      app.use((req: any, res: any, next: any) => sloppy(next))
      app.get('/', (req: any, res: any) => res.send('reached'))
    }],
    ['route handler', (app) => {
      app.get('/', (req: any, res: any, next: any) => sloppy(next), (req: any, res: any) => res.send('reached'))
    }],
    ['error handler', (app) => {
      app.get('/', () => { throw new Error('first') })
      app.use((err: any, req: any, res: any, next: any) => sloppy(() => next(err)))
    }],
    ['param callback', (app) => {
      app.param('id', (req: any, res: any, next: any) => sloppy(next))
      app.get('/:id', (req: any, res: any) => res.send('reached ' + req.params.id))
    }],
    ['a then that throws, in a middleware', (app) => {
      app.use(() => throwing())
      app.get('/', (req: any, res: any) => res.send('reached'))
    }]
  ]
  for (const [name, build] of cases) {
    it(name, async () => {
      const r = await both((app) => { build(app); app.use(reportErrors) }, { path: name === 'param callback' ? '/7' : '/' })
      expect(r.switchyard).toEqual(r.express)
    })
  }
})

describe('Router.Route', () => {
  it('is the Route class: req.route instanceof Router.Route, and fw.Route is the same class', async () => {
    const r = await recorded((app, lib, record) => {
      app.get('/', (req: any, res: any) => {
        record([req.route instanceof lib.Router.Route, lib.Router.Route === lib.Route, Object.keys(lib.Router)])
        res.end()
      })
    }, { path: '/' })
    expect(r.switchyard.records).toEqual(r.express.records)
    expect(r.switchyard.records[0]).toEqual([true, true, ['Route']])
  })
})

describe("res.attachment('')", () => {
  for (const name of ['', 'report.pdf', undefined]) {
    it(`attachment(${JSON.stringify(name)})`, async () => {
      const r = await both((app) => app.get('/', (req: any, res: any) => res.attachment(name).end()), { path: '/' })
      expect(r.switchyard).toEqual(r.express)
    })
  }
  it('an empty string is a file name', async () => {
    const r = await both((app) => app.get('/', (req: any, res: any) => res.attachment('').end()), { path: '/' })
    expect(r.switchyard.headers['content-disposition']).toBe('attachment; filename=""')
  })
})

describe('Content-Length as res.getHeader and res.getHeaders return it', () => {
  const cases: Array<[string, (req: any, res: any) => void, Partial<RawRequest>?]> = [
    ['send(string)', (req, res) => res.send('hello')],
    ['send(Buffer)', (req, res) => res.send(Buffer.from('bytes'))],
    ['json', (req, res) => res.json({ a: 1 })],
    ['jsonp', (req, res) => res.jsonp({ a: 1 }), { path: '/?callback=cb' }],
    ['sendStatus', (req, res) => res.sendStatus(201)],
    ['redirect', (req, res) => res.redirect('/elsewhere')],
    ['HEAD send', (req, res) => res.send('hello'), { method: 'HEAD' }],
    ['205 send', (req, res) => res.status(205).send('gone')],
    ['304 from freshness', (req, res) => res.set('ETag', '"x"').send('hello'), { headers: { 'if-none-match': '"x"' } }]
  ]
  for (const [name, handler, req] of cases) {
    it(name, async () => {
      const r = await recorded((app, lib, record) => {
        app.all('/', (rq: any, rs: any) => {
          handler(rq, rs)
          record([rs.getHeader('Content-Length'), rs.getHeaders()['content-length']])
        })
      }, { path: '/', ...req })
      expect(r.switchyard).toEqual(r.express)
      const [one] = r.switchyard.records as unknown[][]
      if (one[0] !== undefined) expect(typeof one[0]).toBe('string')
    })
  }
  it('the automatic OPTIONS answer and the 404 keep a number, as router and finalhandler store it', async () => {
    for (const method of ['OPTIONS', 'GET']) {
      const r = await recorded((app, lib, record) => {
        app.use((req: any, res: any, next: any) => {
          res.on('finish', () => record(typeof res.getHeader('Content-Length')))
          next()
        })
        app.get('/x', (req: any, res: any) => res.end())
      }, { path: method === 'OPTIONS' ? '/x' : '/nothing', method })
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(r.switchyard.records).toEqual(r.express.records)
    }
  })
})

describe('header values with bytes 0x80-0xFF', () => {
  const cases: Array<[string, (app: any) => void, Partial<RawRequest>?]> = [
    ['send with an ETag', (app) => app.get('/', (req: any, res: any) => res.set('X-Name', 'café').send('hi'))],
    ['json', (app) => app.get('/', (req: any, res: any) => res.set('X-Name', 'naïve').json({ ok: true }))],
    ['etag off, short body (a string in Express too)', (app) => { app.set('etag', false); app.get('/', (req: any, res: any) => res.set('X-Name', 'café').send('hi')) }],
    ['etag off, body of 1000 characters', (app) => { app.set('etag', false); app.get('/', (req: any, res: any) => res.set('X-Name', 'café').send('é'.repeat(1000))) }],
    ['status message', (app) => app.get('/', (req: any, res: any) => { res.statusMessage = 'Très bien'; res.send('hi') })],
    ['HEAD', (app) => app.get('/', (req: any, res: any) => res.set('X-Name', 'café').send('hi')), { method: 'HEAD' }],
    ['ASCII only keeps working', (app) => app.get('/', (req: any, res: any) => res.set('X-Name', 'cafe').send('hé'))]
  ]
  for (const [name, build, req] of cases) {
    it(name, async () => {
      const r = await bothWith(build, (port) => rawExchange(port, req?.method ?? 'GET'))
      expect(stripVarying(r.switchyard)).toEqual(stripVarying(r.express))
    })
  }
})

describe('an ASCII body written as latin1', () => {
  it('behind a slower pipelined response (Node queues the head and body), next to a non-ASCII body', async () => {
    const r = await bothWith((app) => {
      app.get('/slow', (req: any, res: any) => setTimeout(() => res.set('X-N', 'caf\u00e9').send('slow'), 30))
      app.get('/fast', (req: any, res: any) => res.set('X-N', 'na\u00efve').send('fast'))
      app.get('/utf', (req: any, res: any) => res.set('X-N', 'na\u00efve').send('\u00fcber'))
    }, (port) => rawPipelined(port, ['/slow', '/fast', '/utf']))
    expect(stripVarying(r.switchyard)).toEqual(stripVarying(r.express))
    expect(r.express).toContain('X-N: caf\u00e9\r\n')
  })
})

/** The raw bytes of pipelined GET requests on one connection (closed after the last), as latin1 text. */
function rawPipelined(port: number, paths: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      // (not half-closed: the last request asks the server to close)
      socket.write(paths.map((p, i) => `GET ${p} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join(''))
    })
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.on('error', reject)
  })
}

/** The raw bytes of one response (connection closed after it), as latin1 text. */
function rawExchange(port: number, method: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end(`${method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
    })
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.on('error', reject)
  })
}

function stripVarying(raw: string): string {
  return raw.replace(/^Date: .*\r\n/gm, '').replace(/^X-Powered-By: .*\r\n/gm, '')
}

describe('a fresh QUERY request', () => {
  for (const headers of [{ 'if-none-match': '*' }, { 'if-none-match': 'W/"nope"' }]) {
    it(`If-None-Match: ${headers['if-none-match']}`, async () => {
      const r = await both((app) => app.all('/', (req: any, res: any) => res.send('result')), { method: 'QUERY', path: '/', headers })
      expect(r.switchyard).toEqual(r.express)
    })
  }
  it('answers 304 to If-None-Match: *', async () => {
    const r = await both((app) => app.all('/', (req: any, res: any) => res.send('result')), { method: 'QUERY', path: '/', headers: { 'if-none-match': '*' } })
    expect(r.switchyard.status).toBe(304)
  })
})

/** A sample app of nested routers, sub-apps, route chains and regular-expression paths. */
function sampleApp(lib: Lib) {
  const app = lib()
  app.use(lib.json())
  app.use(lib.static('.'))
  app.use(function logger(req: any, res: any, next: any) { next() })
  app.get('/', function home(req: any, res: any) { res.end() })
  app.route('/books').get(function list(req: any, res: any) { res.end() }).post(lib.urlencoded(), function create(req: any, res: any) { res.end() })
  app.get(/^\/re(\d+)$/, (req: any, res: any) => res.end())
  app.all(['/a', '/b/:id'], (req: any, res: any) => res.end())
  const api = lib.Router({ mergeParams: true })
  const users = lib.Router()
  users.get('/:uid', function showUser(req: any, res: any) { res.end() })
  users.delete('/:uid', function removeUser(req: any, res: any) { res.end() })
  api.use('/users', users)
  api.patch('/things/{*rest}', function patchThing(req: any, res: any) { res.end() })
  app.use('/api/:v', api)
  const sub = lib()
  sub.get('/status', function status(req: any, res: any) { res.end() })
  app.use('/admin', sub)
  app.param('id', function loadId(req: any, res: any, next: any) { next() })
  return app
}

/** A layer and route as a tool sees them: own keys, names, raw paths, and the same for nested stacks. */
function describeStack(stack: any[]): unknown[] {
  return stack.map((layer) => ({
    keys: Object.keys(layer),
    name: layer.name,
    handleName: layer.handle.name,
    rawPath: layer.rawPath instanceof RegExp ? String(layer.rawPath) : layer.rawPath,
    slash: layer.slash,
    matchers: layer.matchers.length,
    method: layer.method,
    route: layer.route && {
      keys: Object.keys(layer.route),
      path: layer.route.path instanceof RegExp ? String(layer.route.path) : layer.route.path,
      methods: layer.route.methods,
      stack: describeStack(layer.route.stack)
    },
    nested: Array.isArray(layer.handle.stack) ? describeStack(layer.handle.stack) : undefined
  }))
}

describe('what tools read from the router stack', () => {
  it('layers and routes expose the same fields, names and values as express@5', () => {
    const ours = describeStack(sampleApp(fw).router.stack)
    const theirs = describeStack(sampleApp(express).router.stack)
    expect(ours).toEqual(theirs)
  })

  it('a layer printed or copied shows the same keys', () => {
    const ours = sampleApp(fw).router.stack
    const theirs = sampleApp(express).router.stack
    for (let i = 0; i < ours.length; i++) {
      expect(Object.keys({ ...ours[i] })).toEqual(Object.keys({ ...theirs[i] }))
      expect(Object.keys(JSON.parse(JSON.stringify(ours[i], (k, v) => (typeof v === 'function' ? v.name : v instanceof RegExp ? String(v) : v))))).toEqual(
        Object.keys(JSON.parse(JSON.stringify(theirs[i], (k, v) => (typeof v === 'function' ? v.name : v instanceof RegExp ? String(v) : v)))))
    }
  })

  it('a router exposes the same own keys', () => {
    expect(Object.keys(fw.Router())).toEqual(Object.keys(express.Router()))
    expect(Object.keys(fw().router)).toEqual(Object.keys(express().router))
  })

  it('express-list-endpoints gives the same output for both', () => {
    const ours = listEndpoints(sampleApp(fw).router as any)
    const theirs = listEndpoints(sampleApp(express).router as any)
    expect(ours).toEqual(theirs)
    expect(ours.length).toBeGreaterThan(3)
    expect(listEndpoints(sampleApp(fw) as any)).toEqual(listEndpoints(sampleApp(express) as any))
  })

  it('matchers match as router@2 matchers do', () => {
    const ours = sampleApp(fw).router.stack
    const theirs = sampleApp(express).router.stack
    const paths = ['/', '/books', '/books/', '/re12', '/a', '/b/7', '/api/v1/users/3', '/admin/status', '/nothing']
    for (let i = 0; i < ours.length; i++) {
      for (const p of paths) {
        const a = ours[i].matchers.map((m: any) => m(p))
        const b = theirs[i].matchers.map((m: any) => m(p))
        expect(normaliseMatch(a)).toEqual(normaliseMatch(b))
      }
    }
  })
})

describe('router@2.3 introspection: listRoutes, layer.match, route._methods', () => {
  /** A listing with the routers replaced by their own listings, recursively, and regexps as text. */
  function listing(router: any): unknown {
    return router.listRoutes().map((r: any) => ({
      path: r.path instanceof RegExp ? String(r.path) : r.path,
      methods: r.methods,
      router: r.router === undefined ? undefined : listing(r.router)
    }))
  }
  function build(lib: Lib) {
    const app = sampleApp(lib)
    app.route('/chain').all((req: any, res: any, next: any) => next()).post((req: any, res: any) => res.end()).get((req: any, res: any) => res.end())
    app.head('/only-head', (req: any, res: any) => res.end())
    app.get('/get-and-head', (req: any, res: any) => res.end())
    app.head('/get-and-head', (req: any, res: any) => res.end())
    app.use(['/m1', '/m2'], lib.Router().get('/x', (req: any, res: any) => res.end()))
    return app
  }

  it('app.router.listRoutes() lists the same routes and routers, recursively', () => {
    const ours = listing(build(fw).router)
    const theirs = listing(build(express).router)
    expect(ours).toEqual(theirs)
    expect(JSON.stringify(ours)).toContain('"*"')
  })

  it('a mounted router is the router itself, each path of an array its own entry with its own methods array', () => {
    for (const lib of [fw, express] as Lib[]) {
      const app = lib()
      const inner = lib.Router()
      app.use('/in', inner)
      app.get(['/a', '/b'], (req: any, res: any) => res.end())
      const list = app.router.listRoutes()
      expect(list[0].router).toBe(inner)
      expect(list[1].methods).toEqual(list[2].methods)
      expect(list[1].methods).not.toBe(list[2].methods)
    }
  })

  it('route._methods(), with and without the .all() wildcard', () => {
    for (const includeAll of [undefined, true]) {
      const ours = build(fw).router.stack.filter((l: any) => l.route).map((l: any) => l.route._methods(includeAll))
      const theirs = build(express).router.stack.filter((l: any) => l.route).map((l: any) => l.route._methods(includeAll))
      expect(ours).toEqual(theirs)
    }
  })

  it('layer.match(path) gives router@2.3\'s answer', () => {
    const ours = build(fw).router.stack
    const theirs = build(express).router.stack
    const paths = ['/', '/books', '/books/', '/re12', '/a', '/b/7', '/b/%41', '/api/v1/users/3', '/admin/status', '/chain', '/m2/x', '/nothing', undefined as any]
    expect(ours.length).toBe(theirs.length)
    for (let i = 0; i < ours.length; i++) {
      for (const p of paths) {
        const a = ours[i].match(p)
        const b = theirs[i].match(p)
        const plain = (m: any) => m && { ...m, params: { ...m.params }, pattern: m.pattern instanceof RegExp ? String(m.pattern) : m.pattern }
        expect(plain(a)).toEqual(plain(b))
      }
    }
  })

  it('a layer.match replaced by a tool is asked, and its answer used', async () => {
    const r = await recorded((app, lib, record) => {
      app.get('/u/:id', (req: any, res: any) => res.send(req.params.id))
      const layer = app.router.stack[app.router.stack.length - 1]
      const match = layer.match
      layer.match = function (this: any, path: string) {
        record(path)
        const m = match.call(this, path)
        if (m) m.params.id = m.params.id + '!'
        return m
      }
    }, { path: '/u/7' })
    expect(r.switchyard).toEqual(r.express)
    expect((r.express.answer as any).body).toBe('7!')
  })
})

function normaliseMatch(results: any[]): unknown {
  return results.map((m) => (m ? { path: m.path, params: { ...m.params } } : false))
}

describe('req.params of a static path', () => {
  it('has no prototype, as path-to-regexp gives it, for routes and use paths', async () => {
    const r = await recorded((app, lib, record) => {
      const check = (tag: string) => (req: any, res: any, next: any) => { record([tag, Object.getPrototypeOf(req.params) === null]); next() }
      app.use(check('use /'))
      app.use('/s', check('use /s'))
      app.get('/s/t', check('route /s/t'), (req: any, res: any) => res.end())
    }, { path: '/s/t' })
    expect(r.switchyard.records).toEqual(r.express.records)
  })
})



describe("req.params of a mount (a dictionary unless a mergeParams router copies them)", () => {
  // a mount's params are made one way for a mergeParams router below and
  // another for everything else; a param trigger sees the object itself
  const mounts: Array<[string, string]> = [
    ['a middleware', '/mw/1/x'],
    ['a router', '/r/2/x'],
    ['a mergeParams router', '/m/3/x'],
    ['a sub-app', '/app/4/x'],
    ['a mergeParams router without parameters', '/em/x'],
    ['a router without parameters', '/e/x']
  ]
  for (const [label, path] of mounts) {
    it(`on ${label}: the same object as in Express, to a param trigger and below`, async () => {
      const r = await recorded((app, lib, record) => {
        const look = (tag: string, p: any) => record({
          tag,
          nullProto: Object.getPrototypeOf(p) === null,
          keys: Reflect.ownKeys(p),
          json: JSON.stringify(p),
          extensible: Object.isExtensible(p),
          descriptor: Object.getOwnPropertyDescriptor(p, 'x')
        })
        app.param('x', (req: any, res: any, next: any, value: string) => {
          look('trigger', req.params)
          // written into the mount's own params: a mergeParams router below copies it
          req.params.written = value + '!'
          req.params.x = value + '?'
          next()
        })
        const answer = (req: any, res: any) => { look('route', req.params); res.json(req.params) }
        app.use('/mw/:x', (req: any, res: any) => { look('middleware', req.params); res.json(req.params) })
        const plain = lib.Router()
        plain.get('/x', answer)
        app.use('/r/:x', plain)
        const merged = lib.Router({ mergeParams: true })
        merged.use((req: any, res: any, next: any) => { look('merged middleware', req.params); next() })
        merged.get('/x', answer)
        app.use('/m/:x', merged)
        const sub = lib()
        sub.get('/x', answer)
        app.use('/app/:x', sub)
        const emptyMerged = lib.Router({ mergeParams: true })
        emptyMerged.get('/x', answer)
        app.use('/em', (req: any, res: any, next: any) => { look('before', req.params); next() }, emptyMerged)
        const empty = lib.Router()
        empty.get('/x', answer)
        app.use('/e', empty)
      }, { path })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.records.length).toBeGreaterThan(0)
    })
  }
})

describe('req.params of a middleware on / (a fresh empty object, made smaller)', () => {
  it('is an ordinary empty object, a new one for each middleware, as {} is in Express', async () => {
    const r = await recorded((app, lib, record) => {
      let previous: unknown
      const look = (tag: string) => (req: any, res: any, next: any) => {
        const p = req.params
        record({
          tag,
          proto: Object.getPrototypeOf(p) === Object.prototype,
          ctor: p.constructor === Object,
          keys: Reflect.ownKeys(p),
          json: JSON.stringify(p),
          text: Object.prototype.toString.call(p) + String(p),
          extensible: Object.isExtensible(p),
          same: p === previous,
          spread: { ...p }
        })
        previous = p
        // what one middleware writes stays in its own object
        p.written = tag
        Object.defineProperty(p, 'hidden', { value: 1, enumerable: false })
        record({ tag, after: Object.keys(p), descriptor: Object.getOwnPropertyDescriptor(p, 'written'), hidden: Object.getOwnPropertyNames(p) })
        next()
      }
      app.use(look('first'), look('second'))
      app.use(look('third'))
      const merged = lib.Router({ mergeParams: true })
      merged.use(look('in a mergeParams router'))
      merged.get('/:id', (req: any, res: any) => res.json(req.params))
      app.use('/m/:x', merged)
      const plain = lib.Router()
      plain.use(look('in a plain router'))
      plain.get('/:id', (req: any, res: any) => res.json(req.params))
      app.use('/p', plain)
    }, { path: '/m/1/2' })
    expect(r.switchyard).toEqual(r.express)
    expect(r.switchyard.records.length).toBe(8)
    const again = await recorded((app, lib, record) => {
      const plain = lib.Router()
      plain.use((req: any, res: any, next: any) => { record([Object.getPrototypeOf(req.params) === Object.prototype, Object.keys(req.params)]); next() })
      plain.get('/:id', (req: any, res: any) => res.json(req.params))
      app.use('/p', plain)
    }, { path: '/p/7' })
    expect(again.switchyard).toEqual(again.express)
    expect(again.switchyard.records).toEqual([[true, []]])
  })
})

describe('res.locals and the params of a path without parameters (empty objects without prototype, made smaller)', () => {
  it('are fresh objects without prototype that take keys as Object.create(null) does', async () => {
    const r = await recorded((app, lib, record) => {
      const look = (tag: string, obj: any) => {
        record({
          tag,
          proto: Object.getPrototypeOf(obj),
          keys: Reflect.ownKeys(obj),
          json: JSON.stringify(obj),
          extensible: Object.isExtensible(obj),
          inObject: 'toString' in obj,
          text: Object.prototype.toString.call(obj)
        })
        obj.written = tag
        obj.__proto__ = 'a key like any other'
        obj[Symbol.for('switchyard.test')] = 1
        for (let i = 0; i < 40; i++) obj['k' + i] = i
        delete obj.k3
        record({ tag, keys: Reflect.ownKeys(obj).length, own: Object.keys(obj).slice(0, 6), proto: Object.getPrototypeOf(obj), protoKey: Object.getOwnPropertyDescriptor(obj, '__proto__') })
      }
      app.get('/static/path', (req: any, res: any, next: any) => {
        look('params', req.params)
        look('locals', res.locals)
        next()
      }, (req: any, res: any) => res.json({ params: req.params, locals: res.locals }))
    }, { path: '/static/path' })
    expect(r.switchyard).toEqual(r.express)
    expect(r.switchyard.records.length).toBe(4)
  })
})

describe('mergeParams copies what Object.assign copies', () => {
  it('keys the app added to the parent params (a symbol, a string) and indexed params, in order', async () => {
    const r = await recorded((app, lib, record) => {
      const mark = Symbol.for('switchyard.test.mark')
      const inner = lib.Router({ mergeParams: true })
      inner.get(/^\/(\d+)$/, (req: any, res: any) => {
        record([Object.keys(req.params), req.params[mark] ?? null, Object.getOwnPropertySymbols(req.params).length, { ...req.params }])
        res.end()
      })
      // the app calls the router itself, so the params it changed are the parent's
      app.use('/a/:x/:y', (req: any, res: any, next: any) => {
        req.params[mark] = 'symbol value'
        req.params.added = 'by the app'
        Object.defineProperty(req.params, 'hidden', { value: 'not enumerable', enumerable: false })
        inner(req, res, next)
      })
    }, { path: '/a/1/2/3' })
    expect(r.switchyard.records).toEqual(r.express.records)
    expect((r.switchyard.records[0] as unknown[])[1]).toBe('symbol value')
  })
})

describe('chains of middleware on / (the router\'s pass-through step)', () => {
  // Each middleware records what it sees; both apps must record the same.
  const build = (app: any, lib: Lib, record: (v: unknown) => void) => {
    const seen = (tag: string) => (req: any, res: any, next: any) => {
      record({ tag, url: req.url, baseUrl: req.baseUrl, params: { ...req.params }, proto: Object.getPrototypeOf(req.params) === null })
      next()
    }
    // 250 pass-throughs: past the 100-step synchronous limit twice
    for (let i = 0; i < 250; i++) app.use((req: any, res: any, next: any) => { req.count = (req.count ?? 0) + 1; next() })
    app.use(seen('after250'))
    // a promise from a pass-through: rejected, it goes to the error handler
    app.use((req: any, res: any, next: any) => (req.query.reject ? Promise.reject(new Error('rejected')) : next()))
    app.use((req: any, res: any, next: any) => { req.params.leaked = 'x'; next() })
    app.use(seen('fresh params'))
    app.use((req: any, res: any, next: any) => { req.url = '/rewritten' + req.url; next() })
    app.use(seen('rewritten'))
    app.use('/rewritten', (req: any, res: any, next: any) => { record({ tag: 'mounted', url: req.url, baseUrl: req.baseUrl }); next() })
    app.use(seen('after mount'))
    app.use((req: any, res: any, next: any) => { req.url = req.url.slice('/rewritten'.length) || '/'; next() })
    const inner = lib.Router({ mergeParams: true })
    for (let i = 0; i < 3; i++) inner.use(seen('inner ' + i))
    inner.use((req: any, res: any, next: any) => next(i0(req)))
    inner.use((err: any, req: any, res: any, next: any) => { record({ tag: 'inner error', message: err?.message }); next() })
    inner.use(seen('after inner error'))
    inner.use((req: any, res: any, next: any) => next('route'))
    inner.use(seen('after next(route)'))
    inner.use((req: any, res: any, next: any) => next('router'))
    inner.use(seen('never'))
    app.use('/:group', inner)
    app.use((req: any, res: any, next: any) => { throw new Error('thrown') })
    app.use(seen('skipped by the error'))
    app.use((err: any, req: any, res: any, next: any) => { res.json({ err: err.message, count: req.count, params: req.params }) })
  }
  const i0 = (req: any) => (req.query.fail ? new Error('inner') : undefined)

  for (const path of ['/g/x', '/g/x?fail=1', '/g/x?reject=1', '/G', '/']) {
    it(`records the same for ${path}`, async () => {
      const r = await recorded(build, { method: 'GET', path })
      expect(r.switchyard).toEqual(r.express)
      if (path.endsWith('reject=1')) expect(String((r.switchyard.answer as any).body)).toContain('rejected')
      else expect(r.switchyard.records.length).toBeGreaterThan(3)
    })
  }
})

describe('a mounted middleware that puts the whole URL back before next()', () => {
  // The pass-through step must still undo the mount (restore req.baseUrl, put
  // the stripped path back in front of req.url, as router@2 does) even though
  // req.url is again the URL the router last parsed; and under a mount path
  // without a trailing slash, the rewritten URL keeps its leading '/'
  // (router@2.3).
  const build = (app: any, lib: Lib, record: (v: unknown) => void) => {
    const seen = (tag: string) => (req: any, res: any, next: any) => {
      record({ tag, url: req.url, baseUrl: req.baseUrl, originalUrl: req.originalUrl })
      next()
    }
    app.use(seen('first'))
    app.use('/api', (req: any, res: any, next: any) => {
      // (req.originalUrl, not req.query: reading the query would parse the
      // stripped URL, and the router would see a new parse)
      if (!req.originalUrl.includes('keep')) req.url = req.baseUrl + req.url
      next()
    })
    app.use(seen('after the mount'))
    app.use(seen('and after it'))
    app.use((req: any, res: any) => res.json({ url: req.url, baseUrl: req.baseUrl }))
  }
  // (with ?keep the mounted middleware leaves req.url alone: the '/' the
  // mount added comes off again)
  for (const path of ['/api/x?q=1', '/api', '/api/', '/api?keep=1', '/api/?keep=1', '/api/x?keep=1', '/other']) {
    it(`records the same for ${path}`, async () => {
      const r = await recorded(build, { method: 'GET', path })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.records.length).toBe(3)
    })
  }
})

describe('params through mergeParams routers', () => {
  const build = (app: any, lib: Lib, record: (v: unknown) => void) => {
    const look = (tag: string) => (req: any, res: any, next: any) => {
      record({ tag, params: { ...req.params }, keys: Object.keys(req.params), nullProto: Object.getPrototypeOf(req.params) === null })
      next()
    }
    const outer = lib.Router({ mergeParams: true })
    const inner = lib.Router({ mergeParams: true })
    const plain = lib.Router()
    inner.param('id', (req: any, res: any, next: any, id: string) => { record({ trigger: id }); next() })
    inner.get('/:id', look('inner route'))
    inner.get('/static/x', look('inner static'))
    inner.use('/m/:id', look('inner mount'))
    inner.get(/^\/(\d+)\/(\d+)$/, look('numeric'))
    outer.use('/:section', inner)
    outer.get('/only/:id', look('outer route'))
    plain.get('/:id', look('plain route'))
    app.use('/:area', outer)
    app.use('/p', plain)
    app.get('/static/y', look('app static'))
    app.use((req: any, res: any) => res.json({ done: true }))
  }
  for (const path of ['/a/b/42', '/a/b/static/x', '/a/b/m/7/rest', '/a/only/9', '/p/5', '/static/y', '/a/b/1/2']) {
    it(`gives the same params for ${path}`, async () => {
      const r = await recorded(build, { method: 'GET', path })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.records.length).toBeGreaterThan(0)
    })
  }
})

describe('params filled by code made for their keys', () => {
  // One app per library; every path is asked of the same app in turn, so a
  // matcher that keeps the parent's key list of its last request sees
  // others (the router c is mounted twice, under parents with other keys).
  const look = (record: (v: unknown) => void, tag: string) => (req: any, res: any, next: any) => {
    const params = req.params
    const proto = Object.getPrototypeOf(params)
    record({
      tag,
      keys: Reflect.ownKeys(params).map(String),
      values: Object.values(params),
      proto: proto === null ? 'null' : proto === Object.prototype ? 'Object' : 'other',
      // every own key an enumerable, writable data property
      plainData: Reflect.ownKeys(params).every((k) => { const d = Object.getOwnPropertyDescriptor(params, k)!; return 'value' in d && d.enumerable && d.writable && d.configurable })
    })
    next()
  }
  const build = (app: any, lib: Lib, record: (v: unknown) => void) => {
    const a = lib.Router({ mergeParams: true })
    const b = lib.Router({ mergeParams: true })
    const c = lib.Router({ mergeParams: true })
    c.get('/:pid', look(record, 'three deep'))
    // a name the parent has: its value changes where the key stands
    c.get('/:uid/again', look(record, 'a name the parent has'))
    c.use(look(record, 'a middleware of c'))
    b.use('/:uid/posts', c)
    b.use('/lit', c)
    a.use('/users', b)
    app.use('/api/:version', a)
    // names a fill does not take, or that need quoting
    const odd = lib.Router({ mergeParams: true })
    odd.get('/q/:"a b"/:"x\\"y"/:ünï', look(record, 'quoted and unicode names'))
    odd.get('/idx/:"1"/:"0"', look(record, 'index names'))
    odd.get('/proto/:__proto__', look(record, '__proto__'))
    odd.get('/five/:p1/:p2/:p3/:p4/:p5', look(record, 'five parameters'))
    odd.get('/four/:p1/:p2/:p3/:p4', look(record, 'four parameters'))
    // literal routes under mergeParams, a strict router, eight and nine
    // parameters (made for the pattern up to eight)
    odd.get('/list', look(record, 'a literal route'))
    odd.get('/eight/:p1/:p2/:p3/:p4/:p5/:p6/:p7/:p8', look(record, 'eight parameters'))
    odd.get('/nine/:p1/:p2/:p3/:p4/:p5/:p6/:p7/:p8/:p9', look(record, 'nine parameters'))
    app.use('/odd/:"we ird"', odd)
    const strict = lib.Router({ mergeParams: true, strict: true })
    strict.get('/exact/', look(record, 'a strict literal route'))
    strict.get('/id/:n/', look(record, 'a strict route with a parameter'))
    app.use('/s/:k', strict)
    const sensitive = lib.Router({ mergeParams: true, caseSensitive: true })
    sensitive.get('/Item/:id', look(record, 'a case-sensitive route'))
    sensitive.get('/Items', look(record, 'a case-sensitive literal route'))
    app.use('/c/:k', sensitive)
    // a trigger on the router of the mount: the params are not filled then
    const t = lib.Router()
    t.param('tid', (req: any, res: any, next: any, id: string) => { record({ trigger: id }); next() })
    const below = lib.Router({ mergeParams: true })
    below.get('/:leaf', look(record, 'below a trigger'))
    t.use('/t/:tid', below)
    app.use(t)
    // a plain router between two mergeParams ones
    const plain = lib.Router()
    const under = lib.Router({ mergeParams: true })
    under.get('/:z', look(record, 'under a plain router'))
    plain.use('/:y', under)
    const over = lib.Router({ mergeParams: true })
    over.use('/p', plain)
    app.use('/o/:x', over)
    app.use((err: any, req: any, res: any, next: any) => res.status(err.status || 500).json({ error: err.message }))
    app.use((req: any, res: any) => res.json({ done: true, params: req.params }))
  }
  const paths = [
    '/api/v1/users/42/posts/7', '/api/v1/users/lit/9', '/api/v1/users/42/posts/7', '/api/v2/users/42/posts/42/again',
    '/api/v1/users/42/posts/', '/api/v%201/users/4%202/posts/7%25', '/api/v1/users/42/posts/%E0%A4%A', '/api/v1/users/lit/9',
    '/odd/w/q/1/2/3', '/odd/w/idx/1/2', '/odd/w/proto/x', '/odd/w/five/1/2/3/4/5', '/odd/w/four/1/2/3/4',
    '/t/9/leaf', '/o/1/p/2/3', '/API/V1/USERS/42/POSTS/7',
    '/odd/w/list', '/odd/w/LIST/', '/odd/w/list//', '/odd/w/eight/1/2/3/4/5/6/7/8', '/odd/w/eight/1/2/3/4/5/6/7/%E0', '/odd/w/nine/1/2/3/4/5/6/7/8/9',
    '/s/1/exact/', '/s/1/exact', '/s/1/exact//', '/s/1/EXACT/', '/s/1/id/7/', '/s/1/id/7', '/s/1/id/7//', '/s/1/id/%37/',
    '/c/1/Item/5', '/c/1/item/5', '/c/1/ITEM/5', '/c/1/Items', '/c/1/items', '/c/1/Items/'
  ]
  const run = async (lib: Lib) => {
    const records: unknown[] = []
    const app = (lib as Lib)()
    build(app, lib, (v) => records.push(v))
    const server = await listen(app)
    const answers: unknown[] = []
    try {
      for (const path of paths) {
        records.push({ path })
        const answer = await request(server.port, { method: 'GET', path })
        answers.push([answer.status, answer.body])
      }
    } finally {
      await server.close()
    }
    return { records, answers }
  }
  it('gives the same params, keys, order and prototypes as Express, request after request', async () => {
    const ours = await run(fw as unknown as Lib)
    const theirs = await run(express as unknown as Lib)
    expect(ours).toEqual(theirs)
    // (the paths reached what they were meant to)
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'three deep', keys: ['version', 'uid', 'pid'], values: ['v1', '42', '7'] }))
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'a name the parent has', keys: ['version', 'uid'], values: ['v2', '42'] }))
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'three deep', keys: ['version', 'pid'], values: ['v1', '9'] }))
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'quoted and unicode names', keys: ['we ird', 'a b', 'x"y', 'ünï'] }))
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'index names', keys: ['0', '1', 'we ird'] }))
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'under a plain router', keys: ['y', 'z'] }))
    expect((ours.answers as unknown[][]).some(([status]) => status === 400)).toBe(true)
  })

  it("copies what a layer's replaced match added to the parent's params, and runs a trigger it added", async () => {
    // A tool's `match` is anyone's code: the router must not copy the
    // parent's params by the keys it knew before it ran, nor take the
    // param triggers it saw before it for all there are.
    const r = await recorded((app, lib, record) => {
      let current: any
      app.use((req: any, res: any, next: any) => { current = req; next() })
      const child = lib.Router({ mergeParams: true })
      child.get('/none', look(record, 'never'))
      child.get('/:leaf', look(record, 'after a replaced match'))
      const replaced = child.stack[0]
      let added = false
      replaced.match = function () {
        current.params.added = 'by the match'
        if (!added) {
          added = true
          child.param('leaf', (req: any, res: any, next: any, value: string) => { record({ trigger: value }); next() })
        }
        return false
      }
      app.use('/r/:x', child)
    }, { path: '/r/1/leaf' })
    expect(r.switchyard).toEqual(r.express)
    expect(r.switchyard.records).toEqual([{ trigger: 'leaf' }, expect.objectContaining({ keys: ['x', 'added', 'leaf'] })])
  })

  it('sets a key through a setter on Object.prototype as Object.assign does', async () => {
    // Object.assign sets each key on the new object, so a setter that
    // Object.prototype has for that name runs and no own key is made; the
    // fill's stores are sets too
    const calls: unknown[] = []
    Object.defineProperty(Object.prototype, 'zzSetter', { configurable: true, get() { return undefined }, set(v) { calls.push(v) } })
    try {
      const r = await recorded((app, lib, record) => {
        const child = lib.Router({ mergeParams: true })
        child.get('/:leaf', look(record, 'below a setter'))
        app.use('/s/:zzSetter', child)
      }, { path: '/s/value/leaf' })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.records).toEqual([expect.objectContaining({ keys: ['leaf'] })])
      expect(calls).toEqual(['value', 'value'])
    } finally {
      delete (Object.prototype as any).zzSetter
    }
  })
})

describe('req._parsedUrl as the router leaves it', () => {
  // parseurl caches its parse on req._parsedUrl, and router@2 asks it on
  // every step; middleware that reads the cache directly must find the same
  // parse, including after a mounted router or app passed the request on.
  const build = (app: any, lib: Lib, record: (v: unknown) => void) => {
    let previous: unknown
    const look = (tag: string) => (req: any, res: any, next: any) => {
      const p = req._parsedUrl
      // (the whole parse: the router makes the common ones itself)
      record({ tag, url: req.url, pathname: p?.pathname, raw: p?._raw, search: p?.search, same: p === previous, keys: p ? Reflect.ownKeys(p) : null, json: JSON.stringify(p), proto: p ? Object.getPrototypeOf(p).constructor.name : null })
      previous = p
      next()
    }
    const passing = lib.Router()
    passing.use(look('in router'))
    passing.use(look('in router again'))
    // (routers in a router, on a path and on '/': the router enters them
    // itself and tells them where the search starts)
    const deeper = lib.Router()
    deeper.use(look('in a router in the router'))
    passing.use('/b', deeper)
    const atRoot = lib.Router()
    atRoot.use(look("in a router on '/' in the router"))
    passing.use(atRoot)
    const sub = lib()
    sub.use(look('in sub-app'))
    app.use(look('first'))
    app.use(look('second'))
    app.use('/a', passing)
    app.use(look('after router'))
    app.use('/a', sub)
    app.use(look('after sub-app'))
    app.use((req: any, res: any, next: any) => {
      // a rewrite parsed and undone: the next step parses the real URL again
      const url = req.url
      req.url = '/elsewhere?q=1'
      parseurl(req)
      req.url = url
      next()
    })
    app.use(look('after a parsed rewrite'))
    app.use((req: any, res: any, next: any) => { req._parsedUrl = undefined; next() })
    app.use(look('after the cache is dropped'))
    app.get('/a/:x', look('route'), (req: any, res: any) => res.json({ done: true }))
    app.use((req: any, res: any) => res.json({ fell: true }))
  }
  for (const path of ['/a/b/c', '/a/b']) it(`is the same parse in routers in a router when a setter on req.url keeps something else, for ${path}`, async () => {
    const r = await recorded((app, lib, record) => {
      const look = (tag: string) => (req: any, res: any, next: any) => {
        const p = req._parsedUrl
        record({ tag, url: req.url, baseUrl: req.baseUrl, json: JSON.stringify(p), keys: p ? Reflect.ownKeys(p) : null })
        next()
      }
      app.use((req: any, res: any, next: any) => {
        // a URL cut by a mount gets a query of its own; an empty one gets one without its '/'
        let value = req.url
        Object.defineProperty(req, 'url', {
          get: () => value,
          set: (v) => { value = v === '' ? '?set=2' : v === '/b/c' ? '/b/c?set=1' : v },
          configurable: true,
          enumerable: true
        })
        next()
      })
      const inner = lib.Router()
      inner.use(look('inner'))
      inner.get('/c', look('route'), (req: any, res: any) => res.send('c ' + req.url))
      inner.use((req: any, res: any) => res.send('end ' + req.url))
      const outer = lib.Router()
      outer.use(look('outer'))
      outer.use('/b', inner)
      app.use('/a', outer)
    }, { method: 'GET', path })
    expect(r.switchyard).toEqual(r.express)
    expect(JSON.stringify(r.express.records)).toContain(path === '/a/b' ? 'set=2' : 'set=1')
  })
  for (const path of ['/a/b?x=1', '/a', '/b/c', '/a/b/', '/a/b?x=1?y=2', '/a?', '/a/b#frag', '/a/b%3F?c=d#e', '/a//b', '//a/b', '/a/b/c?d=e', '/a/b?', '/A/B?x=/a/b', '/a/b/?x', '/a/bc?x=1']) {
    it(`is the same parse at every step for ${path}`, async () => {
      const r = await recorded(build, { method: 'GET', path })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.records.length).toBeGreaterThan(4)
    })
  }
})

describe('paths and handlers as router@2.3 takes them at registration', () => {
  /** What registering `register(app)` does on each library: the error it throws (name and message), or the layers' rawPath. */
  function registered(register: (app: any, lib: Lib) => void): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
      const app = (lib as Lib)()
      try {
        register(app, lib)
        out[name] = app.router.stack.map((l: any) => (l.rawPath instanceof RegExp ? String(l.rawPath) : l.rawPath))
      } catch (err: any) {
        out[name] = `${err.name}: ${err.message}`
      }
    }
    return out
  }

  const fn = (req: any, res: any) => res.send('hit ' + req.originalUrl)
  const cases: Array<[string, (app: any, lib: Lib) => void]> = [
    ['a number path on use', (app) => app.use(5, fn)],
    ['undefined, null and true paths on routes', (app) => { app.get(undefined, fn); app.post(null, fn); app.put(true, fn) }],
    ['app.route() without a path', (app) => { app.route().get(fn) }],
    ['a symbol path (path-to-regexp refuses its text)', (app) => app.get(Symbol('s'), fn)],
    ['an object path', (app) => app.use({}, fn)],
    ['a function given as route path', (app) => app.route(fn)],
    ['a number path under strict routing (path-to-regexp refuses the value)', (app) => { app.enable('strict routing'); app.get(5, fn) }],
    ['nested arrays of paths, numbers among them', (app) => app.get([['/a'], ['/b', ['/c', 7]]], fn)],
    ['a non-function route handler after a function', (app) => app.get('/x', fn, 42)],
    ['a non-function route handler in a nested array', (app) => app.route('/x').all([[fn, null]])]
  ]
  for (const [label, register] of cases) {
    it(label, () => {
      const r = registered(register)
      expect(r.switchyard).toEqual(r.express)
    })
  }

  it('nested arrays of paths: every one is routed, and the array is copied at registration', async () => {
    const r = await both((app) => {
      const paths: any[] = ['/a', ['/b', ['/c']]]
      app.get(paths, (req: any, res: any) => res.send(JSON.stringify([req.originalUrl, app.router.stack.at(-1).rawPath])))
      paths.push('/d')
      paths[1][0] = '/changed'
    }, { path: '/c' })
    expect(r.switchyard).toEqual(r.express)
    expect(r.express.body).toBe('["/c",["/a","/b","/c"]]')
    for (const path of ['/b', '/d', '/changed']) {
      const again = await both((app) => {
        const paths: any[] = ['/a', ['/b', ['/c']]]
        app.get(paths, (req: any, res: any) => res.send('hit'))
        paths.push('/d')
        paths[1][0] = '/changed'
      }, { path })
      expect(again.switchyard).toEqual(again.express)
    }
  })
})

describe('deprecation warnings, as express@5.3 and router@2.3 give them (depd)', () => {
  // depd warns once per call site per process: each case runs in a fresh
  // process for each library (the built package; npm test builds first), and
  // a process 'deprecation' listener collects what would go to stderr
  const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
  function fresh(name: string, traced = false): Record<string, any> {
    const out: Record<string, any> = {}
    for (const lib of ['switchyard', 'express']) {
      const args = ['test/fixtures/deprecations.cjs', name, lib, ...(traced ? ['traced'] : [])]
      out[lib] = JSON.parse(execFileSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' }))
    }
    return out
  }
  const expected: Record<string, string[]> = {
    'redirect without a URL': ['express: Provide a url argument', 'express: Url must be a string'],
    'redirect with a string status': ['express: Status must be a number'],
    'redirect with three arguments': ['express: Url must be a string'],
    'handlers returning thenables': ['router: handlers that are Promise-like are deprecated, use a native Promise instead'],
    'thenables from each kind of handler': ['router: handlers that are Promise-like are deprecated, use a native Promise instead'],
    'a param callback returning a thenable': ['router: parameters that are Promise-like are deprecated, use a native Promise instead'],
    'native promises': []
  }
  // how many call sites each case's warnings come from, untraced
  const untracedSites: Record<string, number> = { 'handlers returning thenables': 2, 'thenables from each kind of handler': 4 }
  for (const [name, warnings] of Object.entries(expected)) {
    for (const traced of name.startsWith('redirect') ? [false] : [false, true]) {
      it(name + (traced ? ', express.router.request subscribed' : ''), () => {
        const r = fresh(name, traced)
        expect(r.switchyard).toEqual(r.express)
        // (untraced, the middleware and the error handler are two call sites
        // for depd, so two warnings; each kind of handler, four; traced, all
        // go through one)
        const times = traced ? 1 : untracedSites[name] ?? 1
        expect(r.express.warnings).toEqual(Array.from({ length: times }, () => warnings).flat())
      })
    }
  }
  it('a redirect with three arguments takes the first as the URL', () => {
    expect(fresh('redirect with three arguments').switchyard).toMatchObject({ status: 302, location: '301' })
  })
})

// Express reads settings through app.get (which calls app.set) and
// app.enabled: `env` and `x-powered-by` on every request, `etag fn`, the JSON
// settings (escape first), `query parser fn`, `trust proxy fn` (req.host
// reads it whether it uses it or not)... A tool that wraps one of these sees
// those reads, and its answers are used.
describe('settings read through app.get, app.set and app.enabled', () => {
  // both final handlers log the errors of a production app on stderr
  beforeAll(() => { vi.spyOn(console, 'error').mockImplementation(() => {}) })
  afterAll(() => { vi.restoreAllMocks() })
  const uses: Record<string, (req: any, res: any) => void> = {
    'res.send': (req, res) => res.send('hi'),
    'res.json': (req, res) => res.json({ a: 1 }),
    'res.jsonp': (req, res) => res.jsonp([1]),
    'req.query': (req, res) => res.end(JSON.stringify(req.query)),
    'req.hostname': (req, res) => res.end(String(req.hostname)),
    'req.subdomains': (req, res) => res.end(String(req.subdomains)),
    'an error to the final handler': (req, res) => { throw new Error('boom') }
  }
  for (const wrapped of [['get', 'set', 'enabled'], ['set'], ['get'], ['enabled']]) {
    for (const [name, use] of Object.entries(uses)) {
      it(`${name}, with app.${wrapped.join('/app.')} wrapped`, async () => {
        const out = await recorded((app, lib, record) => {
          app.set('env', 'production')
          for (const method of wrapped) {
            const original = app[method]
            app[method] = function (this: any, ...args: any[]) {
              record(method + '(' + args.map((a) => typeof a === 'function' ? 'fn' : JSON.stringify(a)).join(', ') + ')')
              return original.apply(this, args)
            }
          }
          app.get('/t', use)
        }, { method: 'GET', path: '/t?callback=cb&a[b]=1', headers: { host: 'a.b.example.com' } })
        // (the final handlers log an error from a setImmediate, reading env then)
        await new Promise((resolve) => setTimeout(resolve, 20))
        expect(out.switchyard).toEqual(out.express)
        expect(out.express.records.length).toBeGreaterThan(0)
      })
    }
  }

  it('a wrapper\'s answers are used: app.get giving another env and json spaces', async () => {
    const out = await recorded((app) => {
      app.set('env', 'production')
      const get = app.get
      app.get = function (this: any, ...args: any[]) {
        if (args.length === 1 && args[0] === 'env') return 'development'
        if (args.length === 1 && args[0] === 'json spaces') return 2
        return get.apply(this, args)
      }
      app.get('/json', (req: any, res: any) => res.json({ a: 1 }))
    }, { method: 'GET', path: '/json' })
    expect(out.switchyard).toEqual(out.express)
    expect((out.express.answer as any).body).toContain('\n  "a"')
    const errors = await recorded((app) => {
      app.set('env', 'development')
      const get = app.get
      app.get = function (this: any, ...args: any[]) { return args.length === 1 && args[0] === 'env' ? 'production' : get.apply(this, args) }
      app.get('/error', () => { throw new Error('<detail>') })
    }, { method: 'GET', path: '/error' })
    expect(errors.switchyard).toEqual(errors.express)
    // the production page (no stack): the wrapper's env was used
    expect((errors.express.answer as any).body).toContain('<pre>Internal Server Error</pre>')
  })
})

// A tool that replaces layer.match (on a layer, or on Layer.prototype) is
// asked as router@2.3 asks it: for every layer the request passes, in order,
// '/' middleware included, even where the static-route index would skip it.
describe('a replaced layer.match is asked for every layer the request passes', () => {
  /** An app of more than four layers (so the router indexes it), the match of each layer wrapped to note its calls and force what it returns. */
  function matchApp(lib: Lib, record: (v: unknown) => void, on: 'layers' | 'prototype') {
    const app = lib()
    app.use(function logger(req: any, res: any, next: any) { next() })
    app.get('/a', (req: any, res: any) => res.send('a'))
    app.get('/b', (req: any, res: any) => res.send('b'))
    app.get('/c/:id', (req: any, res: any) => res.send('c' + req.params.id))
    const inner = lib.Router()
    inner.get('/x', (req: any, res: any) => res.send('x'))
    app.use('/in', inner)
    app.use((req: any, res: any) => res.status(404).send('none'))
    const wrap = (original: (path: string) => unknown) => function (this: any, path: string) {
      const m = original.call(this, path)
      record(`${this.name} ${this.route ? this.route.path : ''} ${path} -> ${m ? 'match' : 'no'}`)
      return m
    }
    if (on === 'layers') {
      for (const layer of app.router.stack) layer.match = wrap(layer.match)
    } else {
      const proto = Object.getPrototypeOf(app.router.stack[0])
      const original = proto.match
      proto.match = wrap(original)
      record.restore = () => { proto.match = original }
    }
    return app
  }
  for (const on of ['layers', 'prototype'] as const) {
    for (const path of ['/a', '/b', '/c/7', '/in/x', '/zzz']) {
      it(`GET ${path}, match wrapped on the ${on}`, async () => {
        const restores: Array<() => void> = []
        const out = await recorded((app, lib, record: any) => {
          const built = matchApp(lib, record, on)
          if (record.restore) restores.push(record.restore)
          app.use(built)
        }, { method: 'GET', path })
        for (const restore of restores) restore()
        expect(out.switchyard).toEqual(out.express)
        expect(out.express.records.length).toBeGreaterThan(1)
      })
    }
  }
})

// router@2.3 keeps param callbacks in a plain object: a name that
// Object.prototype holds finds a function there, and pushing to it fails.
describe('param callbacks on a name Object.prototype holds', () => {
  for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf']) {
    it(`router.param('${name}') and app.param('${name}') throw router@2.3's TypeError`, () => {
      const thrown = (register: () => unknown) => {
        try {
          register()
          return 'no error'
        } catch (err: any) {
          return `${err.constructor.name}: ${err.message}`
        }
      }
      const ours = [thrown(() => fw.Router().param(name, () => {})), thrown(() => fw().param(name, () => {}))]
      const theirs = [thrown(() => express.Router().param(name, () => {})), thrown(() => express().param(name, () => {}))]
      expect(ours).toEqual(theirs)
      expect(theirs[0]).toBe('TypeError: params.push is not a function')
    })
  }

  it('a falsy entry put in router.params is replaced, as router@2.3 replaces it', () => {
    const ours = fw.Router() as any
    const theirs = express.Router() as any
    ours.params.id = 0
    theirs.params.id = 0
    ours.param('id', () => {})
    theirs.param('id', () => {})
    expect(ours.params.id.length).toBe(theirs.params.id.length)
  })
})

// express@5.3's final handler logs what reached it as it is: console.error(err)
// (util.inspect: an error's own fields, a plain object or array as data), and
// so never throws on a value without a usable toString.
describe('what the default error handler logs', () => {
  const values: Array<[string, () => unknown]> = [
    ['an Error with fields of its own', () => Object.assign(new Error('timed out'), { code: 'ETIMEDOUT', timeout: 20 })],
    ['a plain object', () => ({ status: 409, message: 'conflict' })],
    ['an array', () => ['a', 'b']],
    ['an object without a prototype', () => Object.assign(Object.create(null), { status: 400 })],
    ['an object whose toString is not a function', () => ({ status: 422, toString: 1 })],
    ['a string', () => 'plain text']
  ]
  for (const [label, make] of values) {
    it(`${label}: the same answer, and the same thing logged`, async () => {
      const logged: Record<string, unknown[]> = {}
      const answers: Record<string, unknown> = {}
      const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
      try {
        for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
          const app = (lib as Lib)()
          app.set('env', 'production')
          app.get('/', (req: any, res: any, next: any) => next(make()))
          const server = await listen(app)
          try {
            const { status, body } = await request(server.port, { path: '/' })
            answers[name] = { status, body }
            await new Promise((r) => setImmediate(r))
            // the stack's frames differ between the libraries; the rest must not
            logged[name] = spy.mock.calls.map((args) => args.map((a) => inspect(a).replace(/\n\s+at .*/g, '')))
            spy.mockClear()
          } finally {
            await server.close()
          }
        }
      } finally {
        spy.mockRestore()
      }
      expect(answers.switchyard).toEqual(answers.express)
      expect(logged.switchyard).toEqual(logged.express)
      expect(logged.express).toHaveLength(1)
    })
  }
})

// router@2.3 puts back the req.baseUrl it found (undefined at the app's own
// router) when a pass hands over, so loggers and metrics reading it on
// 'finish' see undefined for a request the final handler answered.
describe('req.baseUrl once the final handler has answered', () => {
  const paths = ['/ok', '/nothere', '/err', '/r/7/x', '/r/7/fail', '/sub/none']
  for (const path of paths) {
    it(`${path}: the same baseUrl, next and params on 'finish'`, async () => {
      const seen: Record<string, string> = {}
      for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
        const app = (lib as Lib)()
        app.set('env', 'test')
        let state = 'not finished'
        app.use((req: any, res: any, next: any) => {
          res.on('finish', () => {
            state = JSON.stringify({ baseUrl: req.baseUrl === undefined ? 'undefined' : req.baseUrl, own: Object.keys(req).includes('baseUrl'), next: typeof req.next, params: req.params === undefined ? 'undefined' : req.params })
          })
          next()
        })
        app.get('/ok', (req: any, res: any) => res.send('ok'))
        app.get('/err', (req: any, res: any, next: any) => next(new Error('boom')))
        const r = (lib as Lib).Router({ mergeParams: true })
        r.get('/x', (req: any, res: any, next: any) => next())
        r.get('/fail', () => { throw new Error('inside') })
        app.use('/r/:id', r)
        const sub = (lib as Lib)()
        sub.set('env', 'test')
        app.use('/sub', sub)
        const server = await listen(app)
        try {
          const { status } = await request(server.port, { path })
          for (let i = 0; i < 20 && state === 'not finished'; i++) await new Promise((r) => setImmediate(r))
          seen[name] = status + ' ' + state
        } finally {
          await server.close()
        }
      }
      expect(seen.switchyard).toBe(seen.express)
    })
  }
})

// Express loads an engine it has no app.engine() for with require() from
// its own location; the working directory's node_modules do not count.
describe('a template engine module is found where Express finds it', () => {
  it('not from the working directory: an engine only the working directory can see is missing for both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sy-engine-'))
    try {
      mkdirSync(join(dir, 'node_modules', 'fakeeng'), { recursive: true })
      mkdirSync(join(dir, 'views'))
      writeFileSync(join(dir, 'views', 'page.fakeeng'), 'hi')
      writeFileSync(join(dir, 'node_modules', 'fakeeng', 'index.js'), "exports.__express = (p, o, cb) => cb(null, 'rendered by fakeeng')")
      const repo = fileURLToPath(new URL('../..', import.meta.url))
      // the built library, as an app installed elsewhere loads it (npm test builds first)
      const script = `
        const libs = { switchyard: require(${JSON.stringify(join(repo, 'dist/index.cjs'))}), express: require(${JSON.stringify(join(repo, 'node_modules/express'))}) }
        const out = {}
        let left = 2
        for (const [name, lib] of Object.entries(libs)) {
          const app = lib()
          app.set('views', ${JSON.stringify(join(dir, 'views'))})
          app.set('view engine', 'fakeeng')
          const done = (err, html) => {
            out[name] = err ? err.code + ': ' + err.message.split('\\n')[0] : html
            if (--left === 0) console.log(JSON.stringify(out))
          }
          // (a missing engine throws from app.render itself, in both)
          try { app.render('page', done) } catch (err) { done(err) }
        }`
      const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' }))
      expect(out.switchyard).toBe(out.express)
      expect(out.express).toBe("MODULE_NOT_FOUND: Cannot find module 'fakeeng'")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

// router@2.3 marks a param it cannot decode with `err.status = err.statusCode
// = 400`: statusCode becomes an own key first. An error handler that
// serialises the error (res.json(err), Object.keys) shows the order.
describe('the error for a param that cannot be decoded', () => {
  for (const path of ['/u/%ZZ', '/w/a/%ZZ', '/r/%E0%A4%A', '/m/%ZZ/x']) {
    it(`${path}: the same own keys, in order`, async () => {
      const seen: Record<string, unknown> = {}
      for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
        const app = (lib as Lib)()
        app.get('/u/:id', (req: any, res: any) => res.send('ok'))
        app.get('/w/*rest', (req: any, res: any) => res.send('ok'))
        app.get(/^\/r\/(.+)$/, (req: any, res: any) => res.send('ok'))
        app.use('/m/:id', (req: any, res: any) => res.send('ok'))
        app.use((err: any, req: any, res: any, next: any) => res.status(err.status).json({ keys: Object.keys(err), err, message: err.message }))
        const server = await listen(app)
        try {
          const { status, body } = await request(server.port, { path })
          seen[name] = { status, body }
        } finally {
          await server.close()
        }
      }
      expect(seen.switchyard).toEqual(seen.express)
      expect((seen.express as any).body).toContain('"keys":["statusCode","status"]')
    })
  }
})

// on-finished runs each listener in an AsyncResource named after it: the
// final handler's (write), body-parser's (onfinished) and res.sendFile's
// (onfinish) show by those names to async_hooks and in the resource a
// response is written from.
describe('the async resources the listeners of on-finished run in', () => {
  const cases: Array<[string, RawRequest]> = [
    ['the final handler, after a body it reads off', { method: 'POST', path: '/nowhere', headers: { 'Content-Type': 'text/x-other', 'Content-Length': '3' }, body: 'abc' }],
    ['a body parser error', { method: 'POST', path: '/json', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, body: '{"a":"0123456789"}' }],
    ['res.sendFile', { path: '/file' }]
  ]
  for (const [label, req] of cases) {
    it(label, async () => {
      const seen: Record<string, string[]> = {}
      const file = fileURLToPath(new URL('../fixtures/static/secret.txt', import.meta.url))
      for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
        const types: string[] = []
        const hook = createHook({ init(_id, type) { if (type === 'write' || type === 'onfinished' || type === 'onfinish' || type === 'bound-anonymous-fn') types.push(type) } })
        const app = (lib as Lib)()
        app.set('env', 'test')
        app.post('/json', (lib as Lib).json({ limit: 5 }), (req: any, res: any) => res.end())
        app.get('/file', (req: any, res: any) => res.sendFile(file, (err: any) => types.push(err ? 'sendFile failed' : 'sent')))
        app.use((err: any, req: any, res: any, next: any) => { res.status(err.status).end(err.type) })
        const server = await listen(app)
        try {
          hook.enable()
          await request(server.port, req)
          await new Promise((r) => setTimeout(r, 20))
        } finally {
          hook.disable()
          await server.close()
        }
        seen[name] = types
      }
      expect(seen.switchyard).toEqual(seen.express)
      expect(seen.express).not.toContain('sendFile failed')
    })
  }
})

// Express checks res.sendFile's path before it reads options.root.
describe('res.sendFile reads options.root after checking the path', () => {
  for (const [label, path] of [['a number', 123], ['an empty string', ''], ['a relative path', 'a.txt']] as const) {
    it(`${label}: the same reads and the same error`, async () => {
      const seen: Record<string, string[]> = {}
      for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
        const log: string[] = []
        const app = (lib as Lib)()
        app.get('/', (req: any, res: any) => {
          const opts = { get root() { log.push('root read'); return '' } }
          try { res.sendFile(path, opts) } catch (e: any) { log.push(`${e.constructor.name}: ${e.message}`) }
          res.end()
        })
        const server = await listen(app)
        try {
          await request(server.port, { path: '/' })
        } finally {
          await server.close()
        }
        seen[name] = log
      }
      expect(seen.switchyard).toEqual(seen.express)
    })
  }
})

// Found by a sweep of the registration API: what code reads from the objects
// and errors the API gives, the same as on express@5.3 / router@2.3.
describe('the registration API as code reads it', () => {
  const both = (read: (lib: Lib) => unknown) => [read(fw), read(express)]
  const thrown = (fn: () => unknown) => {
    try {
      fn()
      return 'accepted'
    } catch (e: any) {
      return `${e.name}: ${e.message} (${e.originalPath})`
    }
  }

  for (const path of ['/:/', '/{/', '/a\\/', '/:a/:/', ['/ok', '/:/']]) {
    it(`${JSON.stringify(path)}: trailing slashes go before path-to-regexp sees the path (get and use)`, () => {
      const [ours, theirs] = both((lib) => [thrown(() => lib().get(path, () => {})), thrown(() => lib().use(path, () => {}))])
      expect(ours).toEqual(theirs)
    })
  }

  it("the trust proxy default marker: Express's non-enumerable string key", () => {
    const read = (lib: Lib) => {
      const app = lib()
      const before = [Object.getOwnPropertyNames(app.settings).includes('@@symbol:trust_proxy_default'), app.settings['@@symbol:trust_proxy_default'], Object.getOwnPropertySymbols(app.settings).length, Object.keys(app.settings).includes('@@symbol:trust_proxy_default')]
      app.set('trust proxy', 1)
      return [before, app.settings['@@symbol:trust_proxy_default']]
    }
    const [ours, theirs] = both(read)
    expect(ours).toEqual(theirs)
    expect(theirs).toEqual([[true, true, 0, false], false])
  })

  it("the compiled query parsers' names and lengths", () => {
    const read = (lib: Lib) => ['simple', 'extended', true].map((v) => { const app = lib(); app.set('query parser', v); const f = app.get('query parser fn'); return [f.name, f.length] })
    const [ours, theirs] = both(read)
    expect(ours).toEqual(theirs)
  })

  it("Route's methods: length 1, enumerable, in router@2.3's order", () => {
    const read = (lib: Lib) => { const route = lib().route('/x'); return [route.get.length, route.all.length, route.post.length, Object.keys(lib.Route.prototype)] }
    const [ours, theirs] = both(read)
    expect(ours).toEqual(theirs)
  })

  it("View's methods in express@5.3's order", () => {
    const [ours, theirs] = both((lib) => Object.getOwnPropertyNames(lib().get('view').prototype))
    expect(ours).toEqual(theirs)
  })

  it('route methods called with no handler, or with a non-function, throw the same', () => {
    const read = (lib: Lib) => [thrown(() => lib().route('/x').get()), thrown(() => lib().route('/x').all()), thrown(() => lib().route('/x').post(5)), thrown(() => lib().route('/x').get([]))]
    const [ours, theirs] = both(read)
    expect(ours).toEqual(theirs)
  })
})

// Found by a sweep with session and auth middlewares: the `next` a handler is
// given is router@2.3's, as code can read it (its name, and whether it is
// req.next), in every kind of handler.
describe('the next a handler is given', () => {
  it('is named next everywhere, and a route handler gets the route\'s own, not req.next', async () => {
    const r = await recorded((app, lib, record) => {
      const describeNext = (where: string, req: any, next: any) => record([where, next.name, next.length, next === req.next, typeof next, req.next.name])
      app.use(function mw(req: any, res: any, next: any) { describeNext('middleware', req, next); next() })
      app.get('/one', function one(req: any, res: any, next: any) { describeNext('one handler', req, next); next() })
      app.get('/one', function afterRoute(req: any, res: any, next: any) { describeNext('next route', req, next); next('route') })
      app.get('/one', function skip(req: any, res: any, next: any) { next('route') }, function never(req: any, res: any) { res.send('wrong') })
      app.all('/one', function leave(req: any, res: any, next: any) { next('router') })
      const router = lib.Router()
      router.get('/two', function first(req: any, res: any, next: any) { describeNext('first of two', req, next); next() }, function second(req: any, res: any, next: any) { describeNext('second of two', req, next); next(new Error('boom')) })
      router.use(function errs(err: any, req: any, res: any, next: any) { describeNext('error handler', req, next); next(err) })
      app.use(router)
      app.use(function last(err: any, req: any, res: any, next: any) { res.status(500).send(String(req.path) + ':' + err.message) })
      app.use(function notFound(req: any, res: any) { res.status(404).send('nf ' + req.path) })
    }, { path: '/one' })
    expect(r.switchyard).toEqual(r.express)
    const r2 = await recorded((app, lib, record) => {
      const router = lib.Router()
      router.get('/two', function first(req: any, res: any, next: any) { record(['first', next.name, next === req.next]); next() }, function second(req: any, res: any, next: any) { record(['second', next.name, next === req.next]); next(new Error('boom')) })
      router.use(function errs(err: any, req: any, res: any, next: any) { record(['error handler', next.name, next === req.next]); next(err) })
      app.use(router)
      app.use(function last(err: any, req: any, res: any, next: any) { res.status(500).send(err.message) })
    }, { path: '/two' })
    expect(r2.switchyard).toEqual(r2.express)
    expect(r.express.records.length).toBe(3)
    expect(r2.express.records.length).toBe(3)
  })
})

// Found by a sweep of the wire: a response sent on a socket the handler (or
// the client) already destroyed. No client reads it, but what Node keeps of
// it shows to code that checks for aborted requests.
describe('res.send and res.json on a destroyed socket', () => {
  it("leave the response as Express's do: writableLength, writableFinished, 'prefinish', stream.finished", async () => {
    const { finished } = await import('node:stream')
    const http = await import('node:http')
    const seen: Record<string, string[]> = {}
    for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
      const out: string[] = []
      const app = (lib as Lib)()
      app.disable('x-powered-by') // (its value differs on purpose: the head's length would)
      const routes: Record<string, (res: any) => void> = {
        '/ascii': (r) => r.send('hello'), '/utf8': (r) => r.send('h\u00e9llo'), '/json': (r) => r.json({ a: 1 }),
        '/long': (r) => r.send('x'.repeat(1500)), '/buffer': (r) => r.send(Buffer.from('hello'))
      }
      for (const [path, send] of Object.entries(routes)) {
        app.get(path, (req: any, res: any) => {
          const state = () => `writableFinished=${res.writableFinished} writableLength=${res.writableLength}`
          res.on('prefinish', () => out.push(`${path} prefinish`))
          res.on('close', () => out.push(`${path} close: ${state()}`))
          finished(res, (err) => out.push(`${path} finished: ${err ? (err as any).code : 'ok'}`))
          req.socket.destroy()
          send(res)
          out.push(`${path} after send: ${state()}`)
        })
      }
      for (const wrapped of [false, true]) {
        const server = wrapped ? http.createServer((q, r) => app(q, r)) : http.createServer(app)
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
        const port = (server.address() as AddressInfo).port
        try {
          for (const path of Object.keys(routes)) {
            await new Promise<void>((resolve) => { http.get({ port, host: '127.0.0.1', path }).on('error', () => setTimeout(resolve, 30)) })
          }
        } finally {
          await new Promise((resolve) => server.close(resolve))
        }
      }
      seen[name] = out
    }
    expect(seen.switchyard).toEqual(seen.express)
    expect(seen.express.length).toBeGreaterThanOrEqual(30)
  })
})

// Found by a sweep of the wire: Node's response methods patched at the
// prototype BEFORE Switchyard was loaded (an agent preloaded with -r or
// --import). Switchyard must take them for patched, and make Express's calls
// through them (test/fixtures/prepatch: a recording, header-rewriting patch).
describe("Node's response methods patched before Switchyard loaded", () => {
  it('see the calls Express makes, and their answer goes out', () => {
    const repo = fileURLToPath(new URL('../..', import.meta.url))
    const run = (lib: string) => JSON.parse(execFileSync(process.execPath, ['-r', join(repo, 'test/fixtures/prepatch/patch.cjs'), join(repo, 'test/fixtures/prepatch/app.cjs'), lib], { cwd: repo, encoding: 'utf8' }))
    // the built library, as an app installed elsewhere loads it (npm test builds first)
    const ours = run(join(repo, 'dist/index.cjs'))
    const theirs = run(join(repo, 'node_modules/express'))
    expect(ours).toEqual(theirs)
    expect(theirs[0].headers).toContainEqual(['content-type', 'text/plain; charset=utf-8'])
    expect(theirs[0].calls.length).toBeGreaterThan(3)
  })
})

// Found by sweeps over requests, routing and views.
describe('the 404 for a request target with no path', () => {
  // Node takes an absolute-form target with nothing after the authority;
  // its pathname parses as null, and finalhandler names it "null"
  for (const method of ['GET', 'HEAD', 'POST']) {
    for (const path of ['http://', 'https://?a=1', 'http://:80']) {
      it(`${method} ${path}`, async () => {
        const r = await both((app) => {
          app.use((req: any, res: any, next: any) => next())
        }, { method, path })
        expect(r.switchyard).toEqual(r.express)
        expect(r.express.status).toBe(404)
        if (method !== 'HEAD') expect(r.express.body).toContain(`Cannot ${method} null`)
      })
    }
  }
})

describe('a route or mount RegExp with the g or y flag', () => {
  // the user's RegExp is used as it is: its lastIndex carries over from one
  // match to the next, so the route matches every other request, and a
  // layer that fails to match resets it
  const cases: Array<[string, (app: any, re: RegExp) => void, RegExp, string[]]> = [
    ['app.get(/\\/item/g)', (app, re) => app.get(re, (req: any, res: any) => res.send('hit')), /\/item/g, ['/item', '/item', '/item', '/item', '/other', '/item']],
    ['app.get(/^\\/y\\/x/y)', (app, re) => app.get(re, (req: any, res: any) => res.send('hit')), /^\/y\/x/y, ['/y/x', '/y/x', '/y/x']],
    ['app.use(/^\\/api/g)', (app, re) => app.use(re, (req: any, res: any) => res.send('mw ' + req.baseUrl)), /^\/api/g, ['/api/x', '/api/x', '/api/x', '/api']],
    ['a g route among others', (app, re) => {
      app.get('/a', (req: any, res: any, next: any) => next())
      app.get(re, (req: any, res: any) => res.send('g'))
      app.get('/x', (req: any, res: any) => res.send('x'))
    }, /x/g, ['/x', '/x', '/a', '/x', '/x']]
  ]
  for (const [label, build, source, paths] of cases) {
    it(label, async () => {
      const seen: Record<string, unknown> = {}
      for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
        const re = new RegExp(source.source, source.flags)
        const app = (lib as any)()
        build(app, re)
        const server = await listen(app)
        const out: unknown[] = []
        try {
          for (const path of paths) {
            const answer = await request(server.port, { path })
            out.push([answer.status, answer.status === 404 ? '' : answer.body, re.lastIndex])
          }
        } finally {
          await server.close()
        }
        seen[name] = out
      }
      expect(seen.switchyard).toEqual(seen.express)
      expect((seen.express as any[]).some(([status]) => status === 404)).toBe(true)
    })
  }
})

describe('views set up wrong', () => {
  it('a view setting that is not a constructor: the TypeError names View', async () => {
    for (const value of [() => ({}), 'notfn', 5]) {
      const r = await both((app) => {
        app.set('view', value)
        app.get('/', (req: any, res: any) => {
          try {
            res.render('page')
          } catch (e: any) {
            res.send(e.constructor.name + ': ' + e.message)
          }
        })
      }, { path: '/' })
      expect(r.switchyard).toEqual(r.express)
      expect(r.express.body).toBe('TypeError: View is not a constructor')
    }
  })

  it('the View constructor called without options', () => {
    const outcome = (View: any, name: string) => {
      try {
        return inspect(new View(name))
      } catch (e: any) {
        return e.constructor.name + ': ' + e.message
      }
    }
    for (const name of ['index', 'index.ejs']) {
      expect(outcome(fw().get('view'), name)).toBe(outcome(express().get('view'), name))
    }
    expect(outcome(express().get('view'), 'index')).toContain('No default engine')
  })
})

describe('the request, response and application prototypes, as code reflecting on them sees them', () => {
  /** Each own property: key, enumerable, kind, function name and arity (of the value, or the getter). */
  const shape = (obj: object) => Object.getOwnPropertyNames(obj).map((key) => {
    const d = Object.getOwnPropertyDescriptor(obj, key)!
    const f = d.value ?? d.get
    return [key, d.enumerable, 'value' in d ? 'value' : 'getter', typeof f === 'function' ? f.name : typeof f, typeof f === 'function' ? f.length : -1]
  })
  for (const part of ['request', 'response', 'application'] as const) {
    it(`${part}: keys in Express's order, with its names and arities`, () => {
      expect(shape((fw as any)[part])).toEqual(shape((express as any)[part]))
    })
  }
  it('for...in over a request and a response lists what Express lists', () => {
    const keys = (obj: object) => { const out: string[] = []; for (const k in obj) out.push(k); return out }
    expect(keys(Object.create(fw().request))).toEqual(keys(Object.create(express().request)))
    expect(keys(Object.create(fw().response))).toEqual(keys(Object.create(express().response)))
  })
  it("the module's own keys", () => {
    expect(Object.keys(fw)).toEqual(Object.keys(express))
  })
})

describe('res.links with an empty array of URLs', () => {
  for (const links of [{ next: [], last: 'x' }, { a: [], b: [] }, { a: 'x', n: [], z: 'y' }, { next: [] }, { prev: ['p'], next: [] }]) {
    it(JSON.stringify(links), async () => {
      const r = await both((app) => {
        app.get('/', (req: any, res: any) => { res.links(links); res.json({ link: res.get('Link') }) })
      }, { path: '/' })
      expect(r.switchyard).toEqual(r.express)
    })
  }
  it('joins an empty entry as Express does', async () => {
    const r = await both((app) => {
      app.get('/', (req: any, res: any) => { res.links({ next: [], last: 'x' }); res.send(String(res.get('Link'))) })
    }, { path: '/' })
    expect(r.express.body).toBe(', <x>; rel="last"')
    expect(r.switchyard.body).toBe(r.express.body)
  })
})

describe('response helpers called unbound (`promise.then(res.send)`)', () => {
  // what is read first decides the TypeError's message
  const calls: Array<[string, unknown[]]> = [['send', ['x']], ['send', [{ a: 1 }]], ['send', []], ['json', [{ a: 1 }]], ['cookie', ['a', 'b']],
    ['sendFile', ['rel']], ['sendFile', ['/abs/file']], ['sendStatus', [200]], ['redirect', ['/x']], ['links', [{ a: 'b' }]], ['download', ['/abs/file']]]
  for (const [method, args] of calls) {
    it(`${method}(${JSON.stringify(args).slice(1, -1)})`, () => {
      const outcome = (proto: any) => {
        const fn = proto[method]
        try {
          fn(...args)
          return 'returned'
        } catch (e: any) {
          return e.constructor.name + ': ' + e.message
        }
      }
      expect(outcome(fw().response)).toBe(outcome(express().response))
    })
  }
})

describe('req.path and req.query after a middleware rewrote req.url', () => {
  for (const [label, url] of [["''", ''], ['undefined', undefined], ["'http://'", 'http://'], ["'/x?a=1'", '/x?a=1']] as const) {
    it(`req.url = ${label}`, async () => {
      const r = await both((app) => {
        app.use((req: any, res: any) => {
          req.url = url
          const read = (name: string) => {
            try {
              return JSON.stringify(req[name]) ?? 'undefined'
            } catch (e: any) {
              return e.constructor.name + ': ' + e.message
            }
          }
          res.json({ path: read('path'), query: read('query') })
        })
      }, { path: '/start?q=1' })
      expect(r.switchyard).toEqual(r.express)
    })
  }
})

describe('a tool that patches Layer.prototype.handleRequest', () => {
  // (APM tools reach the Layer class through a router's stack and wrap its
  // methods; router@2.3 calls handleRequest for every layer it enters)
  it('sees every layer entered, the pass-through middlewares and a mounted router included', async () => {
    const seen: Record<string, string[][]> = {}
    for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
      const app = (lib as Lib)()
      app.use(function first(req: any, res: any, next: any) { next() })
      app.use(function second(req: any, res: any, next: any) { next() })
      app.use(function third(req: any, res: any, next: any) { next() })
      const router = (lib as Lib).Router()
      router.use(function inner(req: any, res: any, next: any) { next() })
      router.get('/x', function leaf(req: any, res: any) { res.send('leaf') })
      app.use('/r', router)
      app.get('/', function root(req: any, res: any) { res.send('root') })
      const proto = Object.getPrototypeOf(router.stack[0])
      const original = proto.handleRequest
      const calls: string[] = []
      proto.handleRequest = function (this: any, req: any, res: any, next: any) {
        calls.push(this.route ? 'route ' + this.route.path : this.name)
        return original.call(this, req, res, next)
      }
      const server = await listen(app)
      try {
        seen[name] = []
        for (const path of ['/', '/r/x']) {
          calls.length = 0
          const answer = await request(server.port, { path })
          seen[name].push([String(answer.status), answer.body, ...calls])
        }
      } finally {
        proto.handleRequest = original
        await server.close()
      }
    }
    expect(seen.switchyard).toEqual(seen.express)
    expect(seen.express[1]).toEqual(['200', 'leaf', 'first', 'second', 'third', 'router', 'inner', 'route /x', 'leaf'])
  })
})

describe('a mounted router, as tools wrap it after mounting', () => {
  // (the router enters a mounted router of its own directly,
  // only while a call of it would do nothing else)
  const cases: Array<[string, (router: any, app: any, record: (v: unknown) => void) => void]> = [
    ['router.handle replaced on the instance', (router, app, record) => {
      const original = router.handle
      router.handle = function (this: any, req: any, res: any, next: any) {
        record(['handle', this === router, req.url, req.baseUrl])
        return original.call(this, req, res, next)
      }
    }],
    ["the layer's handle wrapped", (router, app, record) => {
      const layer = app.router.stack.find((l: any) => l.handle === router)
      const original = layer.handle
      layer.handle = function wrapped(req: any, res: any, next: any) {
        record(['wrapped', req.url, req.baseUrl])
        return original(req, res, next)
      }
    }],
    ["the layer's handle a copy of the router, its own keys and symbols included", (router, app, record) => {
      const layer = app.router.stack.find((l: any) => l.handle === router)
      const copy: any = function (req: any, res: any, next: any) {
        record(['copy', req.url, req.baseUrl])
        router(req, res, next)
      }
      Object.defineProperties(copy, Object.getOwnPropertyDescriptors(router))
      Object.setPrototypeOf(copy, Object.getPrototypeOf(router))
      layer.handle = copy
    }],
    ['Router.prototype.handle replaced', (router, app, record) => {
      const proto = Object.getPrototypeOf(Object.getPrototypeOf(router))
      const original = proto.handle
      proto.handle = function (this: any, req: any, res: any, next: any) {
        record(['prototype handle', req.url])
        return original.call(this, req, res, next)
      }
      app.use((req: any, res: any, next: any) => { proto.handle = original; next() })
      app.use((err: any, req: any, res: any, next: any) => { proto.handle = original; next(err) })
    }]
  ]
  for (const [label, wrap] of cases) {
    it(label, async () => {
      const r = await recorded((app, lib, record) => {
        const router = lib.Router({ mergeParams: true })
        router.get('/:id', (req: any, res: any) => res.json({ params: req.params, url: req.url, baseUrl: req.baseUrl }))
        const inner = lib.Router()
        inner.get('/y', (req: any, res: any) => res.send('inner ' + req.baseUrl))
        router.use('/:id/in', inner)
        app.use('/r/:top', router)
        wrap(router, app, record)
      }, { method: 'GET', path: '/r/t/42?q=1' })
      expect(r.switchyard).toEqual(r.express)
      expect(r.express.records.length).toBeGreaterThan(0)
    })
  }
  for (const [label, matched] of [['not at the start of the path', '/r'], ['not followed by a slash', '/r/t/4']] as const) {
    it(`a matcher replaced in layer.matchers, whose path is ${label}, does not enter the router`, async () => {
      const r = await recorded((app, lib, record) => {
        const router = lib.Router()
        router.use((req: any, res: any) => res.send('entered ' + req.url + ' ' + req.baseUrl))
        app.use('/r/:top', router)
        const layer = app.router.stack.find((l: any) => l.handle === router)
        const original = layer.matchers[0]
        layer.matchers[0] = function (path: string, ...rest: unknown[]) {
          const m = original.call(this, path, ...rest)
          record(['matcher', path, Boolean(m)])
          return m && { ...m, path: matched === '/r' ? path.slice(2) : matched }
        }
        app.use((req: any, res: any) => res.send('skipped ' + req.url))
      }, { method: 'GET', path: '/r/t/42' })
      expect(r.switchyard).toEqual(r.express)
      expect(r.express.answer).toMatchObject({ body: 'skipped /r/t/42' })
    })
  }
  it('a throw while entering a mounted router goes to the error handlers', async () => {
    const r = await recorded((app, lib, record) => {
      const router = lib.Router()
      router.get('/x', (req: any, res: any) => res.send('x'))
      app.use((req: any, res: any, next: any) => {
        // req.next cannot be set the first time: the mounted router's pass sets it first
        let value = req.next
        let thrown = false
        Object.defineProperty(req, 'next', {
          get: () => value,
          set: (v) => { if (!thrown) { thrown = true; throw new Error('no next') } value = v },
          configurable: true,
          enumerable: true
        })
        // (later: no handler's catch is on the stack when the router is entered)
        setImmediate(next)
      })
      app.use('/m', router)
      app.use((err: any, req: any, res: any, next: any) => { record(err.message); res.status(500).send('caught ' + err.message) })
    }, { method: 'GET', path: '/m/x' })
    expect(r.switchyard).toEqual(r.express)
    expect(r.express.records).toEqual(['no next'])
  })
})

describe('router objects, as code reflecting on them sees them', () => {
  const forIn = (obj: object) => { const out: string[] = []; for (const k in obj) out.push(k); return out }
  /** Each own property of a prototype: key, enumerable, function name and arity. */
  const shape = (obj: object) => Object.getOwnPropertyNames(obj).map((key) => {
    const d = Object.getOwnPropertyDescriptor(obj, key)!
    const f = d.value ?? d.get
    return [key, d.enumerable, typeof f === 'function' ? f.name : typeof f, typeof f === 'function' ? f.length : -1]
  })
  it('for...in over a layer (a middleware, a route, a route handler) lists what router@2.3 lists', () => {
    const layers = (lib: any) => {
      const router = lib.Router()
      router.use(function mw(req: any, res: any, next: any) { next() })
      router.get('/a/:id', function handler(req: any, res: any) { res.end() })
      return [forIn(router.stack[0]), forIn(router.stack[1]), forIn(router.stack[1].route.stack[0])]
    }
    expect(layers(fw)).toEqual(layers(express))
    expect(layers(express)[0]).toContain('handleRequest')
  })
  it("Router.prototype and Route.prototype: keys in router@2.3's order, with its names and arities", () => {
    // (Router.prototype is itself a function there, with its own length, name and prototype)
    expect(shape(fw.Router.prototype)).toEqual(shape(express.Router.prototype))
    expect(shape(fw.Route.prototype)).toEqual(shape(express.Route.prototype))
  })
})

describe("TypeErrors V8 words from Express's variable names, on values of the wrong type", () => {
  // the BUILT library (npm test builds first): the bundler renames variables
  // the source does not, and V8 words these messages from the names
  const fw = createRequire(import.meta.url)('../../dist/index.cjs')
  /** What `fn` throws, as `Name: message`, or 'no error'. */
  const thrown = (fn: () => unknown) => { try { fn(); return 'no error' } catch (e: any) { return e.constructor.name + ': ' + e.message } }
  it('app.use of a sub-app look-alike whose emit or handle is not a function', async () => {
    const run = async (lib: any) => {
      const out: string[] = []
      const d: any = function () {}; d.handle = () => {}; d.set = () => {}
      out.push(thrown(() => lib().use(d)))
      const sub = lib(); sub.emit = 5
      out.push(thrown(() => lib().use('/s', sub)))
      const app = lib(); const d2: any = function () {}; d2.handle = 'x'; d2.set = 1; d2.emit = () => {}
      app.use(d2)
      await new Promise<void>((resolve) => {
        app.use((err: any, req: any, res: any, next: any) => { out.push(err.message); resolve() })
        app.handle({ url: '/', method: 'GET', headers: {} }, { setHeader() {}, getHeader() {} }, () => resolve())
      })
      return out
    }
    const ours = await run(fw)
    expect(ours).toEqual(await run(express))
    expect(ours[0]).toBe('TypeError: fn.emit is not a function')
  })
  it('req.hostname and req.subdomains on a host that is not a string', () => {
    const run = (lib: any) => {
      const out: string[] = []
      for (const [getter, value] of [['host', 123], ['hostname', 123], ['host', null], ['hostname', '']] as const) {
        const app = lib()
        Object.defineProperty(app.request, getter, { configurable: true, get: () => value })
        const req = Object.create(app.request)
        req.headers = { host: 'a.b.example.com' }
        out.push(thrown(() => req.hostname), thrown(() => req.subdomains))
      }
      return out
    }
    expect(run(fw)).toEqual(run(express))
    expect(run(express)[0]).toBe('TypeError: host.indexOf is not a function')
  })
  it('the app called with a res that is not one, or no req', () => {
    const run = (lib: any) => {
      const req = () => ({ url: '/', method: 'GET', headers: {} })
      const res = () => ({ setHeader() {}, getHeader() {} })
      return [[req(), {}], [req(), { setHeader: 'x' }], [req(), 5], [null, res()], [undefined, res()], [undefined, undefined]]
        .map(([rq, rs]) => thrown(() => lib()(rq, rs)))
    }
    expect(run(fw)).toEqual(run(express))
  })
})

describe('the env the default error page is made for', () => {
  const quiet = () => vi.spyOn(console, 'error').mockImplementation(() => {})
  /** The page without the stack's frames (file paths differ) and the length they change. */
  const page = (a: any) => ({ ...a, headers: { ...a.headers, 'content-length': undefined }, body: a.body.replace(/<br>[^]*<\/pre>/, '</pre>') })
  it('is the one the request started with, when a handler changes it', async () => {
    const spy = quiet()
    try {
      for (const [from, to] of [['development', 'production'], ['production', 'development'], ['production', 'test']]) {
        const r = await both((app) => {
          app.set('env', from)
          app.use((req: any, res: any, next: any) => { app.set('env', to); next(new Error('secret')) })
        }, { path: '/' })
        expect(page(r.switchyard)).toEqual(page(r.express))
        expect(r.express.body.includes('secret')).toBe(from !== 'production')
      }
    } finally {
      spy.mockRestore()
    }
  })
  it('falls back to NODE_ENV, then development, when the setting is falsy', async () => {
    const spy = quiet()
    const saved = process.env.NODE_ENV
    try {
      for (const nodeEnv of ['production', undefined]) {
        if (nodeEnv === undefined) delete process.env.NODE_ENV
        else process.env.NODE_ENV = nodeEnv
        for (const value of [undefined, '', null, false, 0]) {
          const r = await both((app) => {
            app.set('env', value)
            app.get('/', () => { throw new Error('secret') })
          }, { path: '/' })
          expect(page(r.switchyard)).toEqual(page(r.express))
          expect(r.express.body.includes('secret')).toBe(nodeEnv !== 'production')
        }
      }
    } finally {
      process.env.NODE_ENV = saved
      spy.mockRestore()
    }
  })
  // Switchyard keeps the handler it made between requests; where it keeps it
  // must not show on the app (it was two symbol keys, added on the first request)
  it('is kept where no key of the app shows it, once requests have come', async () => {
    const r = await recorded((app, lib, record) => {
      app.get('/', (req: any, res: any) => {
        record([Reflect.ownKeys(req.app).length, Object.getOwnPropertySymbols(req.app).map(String)])
        res.end()
      })
    }, { path: '/' })
    expect(r.switchyard.records).toEqual(r.express.records)
    expect(r.express.records[0]).toEqual([expect.any(Number), []])
  })
})

describe("a hook on res._implicitHeader (the private call Node's end() makes to send the head)", () => {
  const bodies: Array<[string, (res: any) => void]> = [
    ['ASCII string', (res) => res.send('hello')],
    ['non-ASCII string', (res) => res.send('héllo ✓')],
    ['long non-ASCII string', (res) => res.send('é'.repeat(600))],
    ['json with non-ASCII', (res) => res.json({ a: 'é' })],
    ['latin1 type', (res) => res.type('text/plain; charset=latin1').send('é')]
  ]
  for (const etag of [true, 'strong', false]) {
    for (const [label, send] of bodies) {
      it(`${label}, etag ${String(etag)}: the hook runs as in Express`, async () => {
        const r = await both((app) => {
          app.set('etag', etag)
          app.use((req: any, res: any, next: any) => {
            const orig = res._implicitHeader
            res._implicitHeader = function (this: any) { this.setHeader('X-Implicit', 'yes'); return orig.call(this) }
            next()
          })
          app.get('/', (req: any, res: any) => send(res))
        }, { path: '/' })
        expect(r.switchyard).toEqual(r.express)
        expect(r.express.headers['x-implicit']).toBe('yes')
      })
    }
  }
})

describe('a router and its prototype chain', () => {
  it('each router has an object of its own between it and Router.prototype, as in router@2.3', () => {
    const chain = (lib: any) => {
      const a = lib.Router()
      const b = new lib.Router()
      const P = lib.Router.prototype
      // what a patch of Object.getPrototypeOf(router) reaches
      Object.getPrototypeOf(a).tag = 'a only'
      return {
        typeofProto: typeof P,
        inspect: inspect(P).split('\n')[0],
        direct: Object.getPrototypeOf(a) === P,
        second: Object.getPrototypeOf(Object.getPrototypeOf(a)) === P && Object.getPrototypeOf(Object.getPrototypeOf(b)) === P,
        shared: Object.getPrototypeOf(a) === Object.getPrototypeOf(b),
        tags: [a.tag, b.tag],
        instance: [a instanceof lib.Router, b instanceof lib.Router, typeof a.call]
      }
    }
    expect(chain(fw)).toEqual(chain(express))
    expect(chain(express).tags).toEqual(['a only', undefined])
  })
})

describe('express.application, as plugins that patch it see it', () => {
  it('is an ordinary object (Object.prototype methods, String(), instanceof Object)', () => {
    const look = (lib: any) => {
      const a = lib.application
      return [Object.getPrototypeOf(a) === Object.prototype, a.hasOwnProperty('render'), String(a), a instanceof Object, Object.keys(a)]
    }
    expect(look(fw)).toEqual(look(express))
  })
})

describe('a class that extends Router, and ES5 inheritance from it', () => {
  it('keeps its own methods and instanceof', () => {
    const look = (lib: any) => {
      class MyRouter extends lib.Router {
        hello() { return 'hello' }
      }
      const r: any = new MyRouter({ strict: true })
      function Legacy(this: any) { return lib.Router.call(this, { caseSensitive: true }) }
      Object.setPrototypeOf(Legacy.prototype, lib.Router.prototype)
      ;(Legacy.prototype as any).extra = function extra() { return 'extra' }
      const l: any = new (Legacy as any)()
      r.get('/x', (req: any, res: any) => res.end())
      return [typeof r, r instanceof MyRouter, typeof r.hello, r.strict, r.stack.length, typeof l, l instanceof Legacy, typeof l.extra, l.caseSensitive]
    }
    expect(look(fw)).toEqual(look(express))
    expect(look(express)[2]).toBe('function')
  })
})

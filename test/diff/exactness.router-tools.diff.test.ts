// Differential tests of the router as tools see it, against express@5.3 /
// router@2.3: the stack and its layers' fields, listRoutes, layer.match and
// matchers replaced, Layer.prototype and mounted routers wrapped, the
// prototype chain and subclasses of Router.
import { inspect } from 'node:util'
import express from 'express'
import listEndpoints from 'express-list-endpoints'
import { describe, expect, it } from 'vitest'
import fw from '../../src/index'
import { listen, request } from '../support/diff'
import { recorded, type Lib } from '../support/recorded'

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

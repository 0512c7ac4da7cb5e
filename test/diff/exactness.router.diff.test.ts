// Differential tests of the router's dispatch against express@5.3 /
// router@2.3: handlers and their promises, the next they get, req.url,
// req._parsedUrl and req.baseUrl along the way, paths at registration, and
// depd's deprecation warnings. Each builds the same app on both, sends the
// same request, and compares what a client or a middleware can observe.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import express from 'express'
import parseurl from 'parseurl'
import { describe, expect, it } from 'vitest'
import fw from '../../src/index'
import { listen, request } from '../support/diff'
import { both, reportErrors } from '../support/res-diff'
import { deprecationsIn } from '../support/output'
import { recorded, type Lib } from '../support/recorded'

const HANDLERS = 'handlers that are Promise-like are deprecated, use a native Promise instead'
const PARAMS = 'parameters that are Promise-like are deprecated, use a native Promise instead'

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
  // router@2.3 warns through depd for a thenable that is not a Promise
  const warned = deprecationsIn([HANDLERS, PARAMS])
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
      // (once per call site: a site an earlier case shares warned there)
      const message = name === 'param callback' ? PARAMS : HANDLERS
      expect(warned).toContain(`express router: ${message}`)
      expect(warned).toContain(`switchyard router: ${message}`)
    })
  }
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
  // a process 'deprecation' listener collects what would go to stderr; the
  // child prints nothing there (what the final handler logs is in `logged`)
  const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
  function fresh(name: string, traced = false): Record<string, any> {
    const out: Record<string, any> = {}
    for (const lib of ['switchyard', 'express']) {
      const args = ['test/fixtures/deprecations.cjs', name, lib, ...(traced ? ['traced'] : [])]
      const child = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' })
      expect(child.stderr).toBe('')
      out[lib] = JSON.parse(child.stdout)
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
        // (a string status throws from res.status, and the production app logs it)
        expect(r.express.logged).toEqual(name === 'redirect with a string status' ? ['TypeError: Invalid status code: "301". Status code must be an integer.'] : [])
      })
    }
  }
  it('a redirect with three arguments takes the first as the URL', () => {
    expect(fresh('redirect with three arguments').switchyard).toMatchObject({ status: 302, location: '301' })
  })
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

// The `next` a handler is given is router@2.3's, as code can read it (its
// name, and whether it is req.next), in every kind of handler.
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

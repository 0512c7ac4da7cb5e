// router@2.3's `express.router.request` TracingChannel, against express@5.3
// (which installs router@2.3): the same app on both, the same request, and
// the events a subscriber sees, in order, with what each context holds then.
// Also the request state router@2.3 keeps whether or not anyone subscribes.
import { AsyncLocalStorage } from 'node:async_hooks'
import dc from 'node:diagnostics_channel'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import fw from '../../src/index'
import { listen, request, type RawRequest } from '../support/diff'
import { deprecationsIn } from '../support/output'

type Lib = any
const channel = dc.tracingChannel('express.router.request')
const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const

/** What a subscriber can read from a context at one event, in a form two runs can compare. */
function describeContext(event: string, ctx: any, req: any): unknown {
  const out: Record<string, unknown> = { event, keys: Object.keys(ctx) }
  out.handler = ctx.handler?.name
  out.layer = ctx.layer?.name
  out.sameReq = ctx.req === req
  out.route = ctx.route instanceof RegExp ? String(ctx.route) : ctx.route
  if ('param' in ctx) out.param = ctx.param
  if ('error' in ctx) out.error = label(ctx.error)
  if ('result' in ctx) out.result = label(ctx.result)
  if ('incomingError' in ctx) out.incomingError = label(ctx.incomingError)
  if ('errorHandler' in ctx) out.errorHandler = ctx.errorHandler
  return out
}

function label(value: unknown): unknown {
  if (value instanceof Error) return `Error(${value.message})`
  if (value !== null && typeof value === 'object') return typeof (value as any).then === 'function' ? 'thenable' : 'object'
  return value
}

const subscribed: Array<() => void> = []
afterEach(() => {
  while (subscribed.length) subscribed.pop()!()
})

/** Subscribe to the given events (all by default); returns the list they fill. */
function subscribe(events: readonly string[] = EVENTS): { list: unknown[]; req: { current: any } } {
  const list: unknown[] = []
  const req = { current: undefined as any }
  const handlers: Record<string, (ctx: any) => void> = {}
  for (const e of EVENTS) {
    handlers[e] = events.includes(e) ? (ctx: any) => { list.push(describeContext(e, ctx, req.current)) } : () => {}
  }
  const partial = Object.fromEntries(events.map((e) => [e, handlers[e]]))
  channel.subscribe(partial as any)
  subscribed.push(() => channel.unsubscribe(partial as any))
  return { list, req }
}

/** Let promise callbacks and immediates still queued after the response run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20))
}

/**
 * Build the app on both libraries, send `req`, and return for each the
 * answer, the events seen, and what the app recorded (`note`).
 */
async function traced(build: (app: any, lib: Lib, note: (v: unknown) => void) => void, req: RawRequest, events?: readonly string[]) {
  const out: Record<string, { status: number; body: string; events: unknown[]; notes: unknown[] }> = {}
  for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
    const notes: unknown[] = []
    const app = (lib as Lib)()
    const sub = subscribe(events)
    app.use((r: any, res: any, next: any) => { sub.req.current = r; next() })
    build(app, lib, (v) => notes.push(v))
    const server = await listen(app)
    try {
      const answer = await request(server.port, req)
      await settle()
      out[name] = { status: answer.status, body: answer.body, events: sub.list, notes }
    } finally {
      await server.close()
      subscribed.pop()!()
    }
  }
  return out
}

function sendError(err: any, req: any, res: any, next: any) {
  res.status(err.status || 500).send('caught ' + (err && err.message))
}

const HANDLERS = 'handlers that are Promise-like are deprecated, use a native Promise instead'
const PARAMS = 'parameters that are Promise-like are deprecated, use a native Promise instead'

/** Both libraries gave router@2.3's warning `message` (once per call site: maybe in an earlier test of the block). */
function expectWarned(warned: string[], message: string) {
  expect(warned).toContain(`express router: ${message}`)
  expect(warned).toContain(`switchyard router: ${message}`)
}

function expectSame(r: Awaited<ReturnType<typeof traced>>, minEvents = 2) {
  expect(r.switchyard).toEqual(r.express)
  expect(r.express.events.length).toBeGreaterThanOrEqual(minEvents)
}

describe('express.router.request: synchronous handlers', () => {
  it('middleware and a route handler: start/end each, nested as the calls are', async () => {
    const r = await traced((app) => {
      app.use(function logger(req: any, res: any, next: any) { next() })
      app.get('/users/:id', function show(req: any, res: any) { res.send('user ' + req.params.id) })
    }, { path: '/users/7' })
    expectSame(r, 6)
  })

  it('a handler that returns a value has it as result', async () => {
    const r = await traced((app) => {
      app.get('/', function answer(req: any, res: any) { res.send('x'); return 42 })
    }, { path: '/' })
    expectSame(r)
  })

  it('next(err): error published once at its origin, then the error handler traced with incomingError', async () => {
    const r = await traced((app) => {
      app.use(function fails(req: any, res: any, next: any) { next(new Error('boom')) })
      app.use(function passes(err: any, req: any, res: any, next: any) { next(err) })
      app.use(function handles(err: any, req: any, res: any, next: any) { sendError(err, req, res, next) })
    }, { path: '/' })
    expectSame(r, 6)
  })

  it('a throw: error, then the error handlers inside it, then end without result', async () => {
    const r = await traced((app) => {
      app.get('/', function throws() { throw new Error('thrown') })
      app.use(sendError)
    }, { path: '/' })
    expectSame(r, 4)
  })

  it('an error handler that replaces the error publishes the new one', async () => {
    const r = await traced((app) => {
      app.get('/', function throws() { throw new Error('first') })
      app.use(function replace(err: any, req: any, res: any, next: any) { next(new Error('second')) })
      app.use(sendError)
    }, { path: '/' })
    expectSame(r, 6)
  })

  it('an error handler that recovers lets the same error object be published again', async () => {
    const r = await traced((app) => {
      const shared = new Error('shared')
      app.use(function one(req: any, res: any, next: any) { next(shared) })
      app.use(function recover(err: any, req: any, res: any, next: any) { next() })
      app.use(function again(req: any, res: any, next: any) { next(shared) })
      app.use(sendError)
    }, { path: '/' })
    expectSame(r, 8)
  })

  it("next('route') and next('router') are not errors", async () => {
    const r = await traced((app, lib) => {
      const router = lib.Router()
      router.use(function leave(req: any, res: any, next: any) { next('router') })
      app.use(router)
      app.get('/', function skip(req: any, res: any, next: any) { next('route') }, function never(req: any, res: any) { res.send('no') })
      app.get('/', function finalRoute(req: any, res: any) { res.send('yes') })
    }, { path: '/' })
    expectSame(r, 8)
  })

  it("a thrown 'route' ends like next('route')", async () => {
    const r = await traced((app) => {
      app.get('/', function throwsRoute() { throw 'route' }, function never(req: any, res: any) { res.send('no') })
      app.get('/', function after(req: any, res: any) { res.send('yes') })
    }, { path: '/' })
    expectSame(r, 4)
  })

  it('handlers of the wrong arity are skipped and not traced', async () => {
    const r = await traced((app) => {
      app.use(function four(err: any, req: any, res: any, next: any) { next() })
      app.get('/', function three(req: any, res: any) { res.send('ok') })
    }, { path: '/' })
    expectSame(r)
  })
})

describe('express.router.request: promises', () => {
  const warned = deprecationsIn([HANDLERS])
  it('a resolved promise: end without result, then asyncStart/asyncEnd with the value', async () => {
    const r = await traced((app) => {
      app.get('/', async function asyncSend(req: any, res: any) { res.send('ok'); return 'done' })
    }, { path: '/' })
    expectSame(r, 4)
  })

  it('a rejected promise: the error, then asyncStart/asyncEnd carrying it', async () => {
    const r = await traced((app) => {
      app.get('/', async function rejects() { throw new Error('async boom') })
      app.use(sendError)
    }, { path: '/' })
    expectSame(r, 6)
  })

  it('a promise rejecting with a falsy value gets the Error the router makes', async () => {
    const r = await traced((app) => {
      app.get('/', function rejectsFalsy() { return Promise.reject(null) })
      app.use(sendError)
    }, { path: '/' })
    expectSame(r, 6)
  })

  it('next(err) before the promise settles: the error before end, hidden during end', async () => {
    const r = await traced((app) => {
      app.get('/', async function early(req: any, res: any, next: any) { next(new Error('early')); await null; return 'later' })
      app.use(sendError)
    }, { path: '/' })
    expectSame(r, 6)
  })

  it('a thenable that settles inside then() settles after end', async () => {
    const r = await traced((app) => {
      app.get('/', function syncThenable(req: any, res: any) {
        res.send('ok')
        return { then(resolve: any) { resolve('at once') } }
      })
    }, { path: '/' })
    expectSame(r, 4)
    expectWarned(warned, HANDLERS)
  })

  it('a promise that settles twice (resolve, then a rejection through next) is traced once', async () => {
    const r = await traced((app) => {
      app.get('/', function both(req: any, res: any, next: any) {
        return { then(resolve: any, reject: any) { resolve('first'); reject(new Error('second')) } }
      })
      app.use(sendError)
    }, { path: '/' })
    expectSame(r, 4)
    expectWarned(warned, HANDLERS)
  })
})

describe('express.router.request: param callbacks', () => {
  const warned = deprecationsIn([PARAMS])
  it('a sync param callback is traced with its param name', async () => {
    const r = await traced((app) => {
      app.param('id', function loadId(req: any, res: any, next: any, value: any) { req.loaded = value; next() })
      app.get('/items/:id', function item(req: any, res: any) { res.send('item ' + req.loaded) })
    }, { path: '/items/9' })
    expectSame(r, 4)
  })

  it('a param callback that fails, throws or returns a promise', async () => {
    for (const kind of ['next', 'throw', 'resolve', 'reject']) {
      const r = await traced((app) => {
        app.param('id', function check(req: any, res: any, next: any, value: any) {
          if (kind === 'next') return next(new Error('bad id ' + value))
          if (kind === 'throw') throw new Error('thrown for ' + value)
          if (kind === 'resolve') { next(); return Promise.resolve('ok') }
          return Promise.reject(new Error('rejected ' + value))
        })
        app.get('/items/:id', function item(req: any, res: any) { res.send('item') })
        app.use(sendError)
      }, { path: '/items/3' })
      expectSame(r, 4)
    }
  })

  it('a param callback that settles inside then() settles after end', async () => {
    const r = await traced((app) => {
      app.param('id', function thenable(req: any, res: any, next: any) { next(); return { then(resolve: any) { resolve('now') } } })
      app.get('/items/:id', function item(req: any, res: any) { res.send('item') })
    }, { path: '/items/3' })
    expectSame(r, 4)
    expectWarned(warned, PARAMS)
  })
})

describe('express.router.request: routes, mounts and matching', () => {
  it('nested routers and a sub-app: each context names the pattern its own router matched', async () => {
    const r = await traced((app, lib) => {
      const api = lib.Router({ mergeParams: true })
      const users = lib.Router({ mergeParams: true })
      users.get(['/list', '/:uid'], function user(req: any, res: any) { res.send(req.params) })
      api.use('/users', users)
      app.use('/api/:v', api)
      const sub = lib()
      sub.get('/hello', function hello(req: any, res: any) { res.send('hi') })
      app.use('/sub', sub)
    }, { path: '/api/1/users/42' })
    expectSame(r, 8)
    const again = await traced((app, lib) => {
      const sub = lib()
      sub.use(function subMiddleware(req: any, res: any, next: any) { next() })
      sub.get(/^\/hel+o$/, function hello(req: any, res: any) { res.send('hi') })
      app.use('/sub', sub)
    }, { path: '/sub/hello' })
    expectSame(again, 8)
  })

  it('a parameter that fails to decode: the error handler gets it, nobody publishes it', async () => {
    const r = await traced((app) => {
      app.get('/p/:x', function never(req: any, res: any) { res.send('no') })
      app.use(function passOn(err: any, req: any, res: any, next: any) { next(err) })
      app.use(sendError)
    }, { path: '/p/%E0%A4%A' })
    expectSame(r, 4)
  })

  it('a subscriber to start alone sees the same starts', async () => {
    const r = await traced((app) => {
      app.use(function first(req: any, res: any, next: any) { next() })
      app.get('/', function second(req: any, res: any) { res.send('ok') })
    }, { path: '/' }, ['start'])
    expectSame(r, 3)
  })

  // each handler call asks all five channels (the router reads them in
  // place): a subscriber to any one of them, attached mid-request, turns
  // tracing on from the next call
  it('a subscriber to one channel alone, attached mid-request, counts from the next call on', async () => {
    for (const event of EVENTS) {
      const seen: Record<string, string[]> = {}
      for (const [name, lib] of [['switchyard', fw], ['express', express]] as Array<[string, Lib]>) {
        const log: string[] = []
        const sub = { [event]: (c: any) => { log.push(event + ' ' + c.handler.name) } }
        let on = false
        const app = lib()
        app.use(function attach(req: any, res: any, next: any) {
          if (!on) { dc.subscribe(`tracing:express.router.request:${event}`, sub[event] as any); on = true }
          next()
        })
        app.use(function passing(req: any, res: any, next: any) { next() })
        app.get('/', async function failing() { throw new Error('no') })
        app.use(function handled(err: any, req: any, res: any, next: any) { res.send('handled') })
        const server = await listen(app)
        try {
          expect((await request(server.port, { path: '/' })).body).toBe('handled')
          await settle()
        } finally {
          if (on) dc.unsubscribe(`tracing:express.router.request:${event}`, sub[event] as any)
          await server.close()
        }
        seen[name] = log
      }
      expect(seen.switchyard).toEqual(seen.express)
      expect(seen.express.length).toBeGreaterThan(0)
    }
  })

  it('a subscriber attached or detached mid-request counts from the next call on', async () => {
    // router@2.3 asks its channel at every call, not once per router pass
    const seen: Record<string, string[][]> = {}
    for (const [name, lib] of [['switchyard', fw], ['express', express]] as Array<[string, Lib]>) {
      const log: string[] = []
      const subs = {
        start(c: any) { log.push('start ' + c.handler.name + (c.param ? ':' + c.param : '')) },
        end(c: any) { log.push('end ' + c.handler.name) },
        asyncStart() {},
        asyncEnd() {},
        error(c: any) { log.push('error ' + c.handler.name) }
      }
      let on = false
      const app = lib()
      const inner = lib.Router()
      app.use(function attach(req: any, res: any, next: any) {
        if (req.query.sub && !on) { channel.subscribe(subs); on = true }
        next()
      })
      app.use(function second(req: any, res: any, next: any) { next() })
      inner.param('id', function loadId(req: any, res: any, next: any) { next() })
      inner.use(function detach(req: any, res: any, next: any) {
        if (req.query.unsub && on) { channel.unsubscribe(subs); on = false }
        next()
      })
      inner.get('/x/:id', function first(req: any, res: any, next: any) { next() }, function last(req: any, res: any) { res.send('ok') })
      inner.use(function fails(err: any, req: any, res: any, next: any) { next(err) })
      app.use(inner)
      const server = await listen(app)
      const runs: string[][] = []
      try {
        for (const q of ['?sub=1', '', '?unsub=1', '']) {
          expect((await request(server.port, { path: '/x/1' + q })).body).toBe('ok')
          await settle()
          runs.push(log.splice(0))
        }
      } finally {
        if (on) channel.unsubscribe(subs)
        await server.close()
      }
      seen[name] = runs
    }
    expect(seen.switchyard).toEqual(seen.express)
    expect(seen.express[0][0]).toBe('start second') // attached inside 'attach': its own call is not traced
    expect(seen.express[3]).toEqual([])
  })

  it('a store bound to start is the context inside the handler and in asyncEnd', async () => {
    for (const lib of [fw, express] as Lib[]) {
      const store = new AsyncLocalStorage<any>()
      channel.start.bindStore(store, (ctx: any) => ctx)
      const seen: unknown[] = []
      const onAsyncEnd = (ctx: any) => { seen.push(['asyncEnd', store.getStore() === ctx]) }
      channel.asyncEnd.subscribe(onAsyncEnd)
      try {
        const app = lib()
        app.get('/', async function inside(req: any, res: any) {
          seen.push(['handler', store.getStore()?.handler === inside])
          await null
          seen.push(['after await', store.getStore()?.handler === inside])
          res.send('ok')
        })
        const server = await listen(app)
        try {
          expect((await request(server.port, { path: '/' })).body).toBe('ok')
          await settle()
        } finally {
          await server.close()
        }
      } finally {
        channel.start.unbindStore(store)
        channel.asyncEnd.unsubscribe(onAsyncEnd)
      }
      expect(seen).toEqual([['handler', true], ['after await', true], ['asyncEnd', true]])
    }
  })
})

describe('express.router.request with switchyard.layer subscribed too', () => {
  it('the request channel sees what express@5.3 publishes; the layer channel still sees every call', async () => {
    const layerEvents: string[] = []
    const onStart = (ctx: any) => { layerEvents.push('start ' + ctx.name) }
    const onError = (ctx: any) => { layerEvents.push('error ' + label(ctx.error)) }
    dc.subscribe('tracing:switchyard.layer:start', onStart)
    dc.subscribe('tracing:switchyard.layer:error', onError)
    try {
      const r = await traced((app) => {
        app.use(function first(req: any, res: any, next: any) { next() })
        app.get('/', async function rejects() { throw new Error('inner') })
        app.get('/', function throws() { throw null })
        app.use(function passOn(err: any, req: any, res: any, next: any) { next(err) })
        app.use(sendError)
      }, { path: '/' })
      expectSame(r, 10)
    } finally {
      dc.unsubscribe('tracing:switchyard.layer:start', onStart)
      dc.unsubscribe('tracing:switchyard.layer:error', onError)
    }
    expect(layerEvents).toEqual(['start <anonymous>', 'start first', 'start rejects', 'error Error(inner)', 'start passOn', 'error Error(inner)', 'start sendError'])
  })
})

describe('router@2.3 request state, with or without subscribers', () => {
  const publishedErrors = Symbol.for('router.tracing.publishedErrors')

  it('an error passed on leaves router@2.3 its set of seen errors on req', async () => {
    const r = await traced((app, lib, note) => {
      app.get('/', function fails(req: any, res: any, next: any) { next(new Error('x')) })
      app.use(function look(err: any, req: any, res: any, next: any) {
        const seen = req[publishedErrors]
        note(seen instanceof Set ? [...seen].map(label) : seen)
        note(Object.getOwnPropertySymbols(req).map(String).filter((s) => s.includes('router.tracing')))
        res.send('seen')
      })
    }, { path: '/' }, [])
    expect(r.switchyard).toEqual(r.express)
    expect(r.express.notes[0]).toEqual(['Error(x)'])
  })

  it('a request that matched layers carries the matched pattern under router@2.3 symbol', async () => {
    const r = await traced((app, lib, note) => {
      app.get('/a/:b', function look(req: any, res: any) {
        const symbols = Object.getOwnPropertySymbols(req).filter((s) => String(s).includes('router.tracing'))
        note(symbols.map((s) => [String(s), req[s]]))
        res.once('finish', () => note(symbols.map((s) => [String(s), req[s], Object.prototype.hasOwnProperty.call(req, s)])))
        res.send('ok')
      })
    }, { path: '/a/1' }, [])
    expect(r.switchyard).toEqual(r.express)
    expect(r.express.notes[0]).toEqual([['Symbol(router.tracing.matchedRoute)', '/a/:b']])
  })

  it('after a 404, the matched pattern is restored, as an own key with no value', async () => {
    const r = await traced((app, lib, note) => {
      app.use(function watch(req: any, res: any, next: any) {
        res.once('finish', () => {
          const symbols = Object.getOwnPropertySymbols(req).filter((s) => String(s).includes('router.tracing'))
          note(symbols.map((s) => [String(s), req[s]]))
        })
        next()
      })
    }, { path: '/nothing' }, [])
    await settle()
    expect(r.switchyard).toEqual(r.express)
    expect(r.express.status).toBe(404)
  })

  it('an automatic OPTIONS answer leaves req as the last layer left it (router@2.3 restores only when it hands over)', async () => {
    const r = await traced((app, lib, note) => {
      const router = lib.Router()
      router.use('/:x', function seen(req: any, res: any, next: any) {
        res.once('finish', () => note({ baseUrl: req.baseUrl, params: { ...req.params }, next: typeof req.next }))
        next()
      })
      router.get('/:x', function get(req: any, res: any) { res.send('get') })
      router.post('/:x', function post(req: any, res: any) { res.send('post') })
      app.use('/r', router)
    }, { method: 'OPTIONS', path: '/r/1' }, [])
    await settle()
    expect(r.switchyard).toEqual(r.express)
    expect(r.express.body).toBe('GET, HEAD, POST')
    expect(r.express.notes).toEqual([{ baseUrl: '/r', params: { x: '1' }, next: 'function' }])
  })
})

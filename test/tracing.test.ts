// Tracing channels: `switchyard.layer` (TracingChannel) around every
// middleware, route handler and error handler, and `switchyard.route` when a
// route starts handling a request.
import dc from 'node:diagnostics_channel'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import fw from '../src/index'
import { kMountRoute } from '../src/router/tracing'
import { deprecationsIn } from './support/output'

const THENABLE = 'handlers that are Promise-like are deprecated, use a native Promise instead'

interface Event { event: string; kind: string; name: string; route: string; fullRoute: string; error?: string }

const layer = dc.tracingChannel('switchyard.layer')
let handlers: Record<string, (ctx: any) => void> | undefined

/** Subscribe to every layer event, recording them in order. */
function record(): Event[] {
  const events: Event[] = []
  const push = (event: string) => (ctx: any) => {
    events.push({
      event, kind: ctx.kind, name: ctx.name, route: ctx.route, fullRoute: ctx.fullRoute,
      ...(ctx.error !== undefined && (event === 'error' || event === 'asyncEnd') ? { error: String(ctx.error.message ?? ctx.error) } : {})
    })
  }
  handlers = { start: push('start'), end: push('end'), asyncStart: push('asyncStart'), asyncEnd: push('asyncEnd'), error: push('error') }
  layer.subscribe(handlers as any)
  return events
}

afterEach(() => {
  if (handlers) layer.unsubscribe(handlers as any)
  handlers = undefined
})

const short = (events: Event[]) => events.map((e) => `${e.event} ${e.name}`)

describe('switchyard.layer', () => {
  it('sync middleware and handler: start/end each, with kind, name and patterns', async () => {
    const events = record()
    const app = fw()
    app.use(function logger(req, res, next) { next() })
    app.get('/users/:id', function showUser(req, res) { res.send(req.params.id) })
    await request(app).get('/users/7').expect(200, '7')
    // start logger, (next runs the route inside logger) start showUser, end showUser, end logger
    expect(short(events)).toEqual(['start logger', 'start showUser', 'end showUser', 'end logger'])
    expect(events[0]).toMatchObject({ kind: 'middleware', route: '/', fullRoute: '/' })
    expect(events[1]).toMatchObject({ kind: 'request handler', route: '/users/:id', fullRoute: '/users/:id' })
  })

  it('every middleware of a chain on / is traced, not only the first', async () => {
    const events = record()
    const app = fw()
    app.use(function first(req, res, next) { next() })
    app.use(function second(req, res, next) { next() })
    app.use(function third(req, res, next) { next() })
    app.get('/', function root(req, res) { res.send('ok') })
    await request(app).get('/').expect(200, 'ok')
    expect(short(events)).toEqual(['start first', 'start second', 'start third', 'start root', 'end root', 'end third', 'end second', 'end first'])
  })

  it('the context carries req, res and the layer, the same object on every event of a call', async () => {
    const seen: any[] = []
    const subs = { start: (c: any) => seen.push(['start', c]), end: (c: any) => seen.push(['end', c]), asyncStart() {}, asyncEnd() {}, error() {} }
    layer.subscribe(subs as any)
    try {
      const app = fw()
      let reqSeen: any
      app.get('/', function root(req, res) { reqSeen = req; res.end() })
      await request(app).get('/').expect(200)
      expect(seen[0][1]).toBe(seen[1][1])
      expect(seen[0][1].req).toBe(reqSeen)
      expect(seen[0][1].res).toBe(reqSeen.res)
      expect(seen[0][1].layer).toBe(app.router.stack[0].route.stack[0])
    } finally {
      layer.unsubscribe(subs as any)
    }
  })

  it('an async handler: start, end, then asyncStart and asyncEnd when its promise settles', async () => {
    const events = record()
    const app = fw()
    app.get('/', async function later(req, res) {
      await new Promise((r) => setTimeout(r, 5))
      res.send('done')
    })
    await request(app).get('/').expect(200, 'done')
    expect(short(events)).toEqual(['start later', 'end later', 'asyncStart later', 'asyncEnd later'])
  })

  it('a thrown error: error before end, then the error handler is traced as one', async () => {
    const events = record()
    const app = fw()
    app.get('/', function boom() { throw new Error('sync failure') })
    app.use(function onError(err: any, req: any, res: any, next: any) { res.status(500).send(err.message) })
    await request(app).get('/').expect(500, 'sync failure')
    expect(short(events)).toEqual(['start boom', 'error boom', 'end boom', 'start onError', 'end onError'])
    expect(events[1].error).toBe('sync failure')
    expect(events[3]).toMatchObject({ kind: 'error handler', route: '/', fullRoute: '/' })
  })

  it('a rejected promise: error, asyncStart, asyncEnd, then the error handler', async () => {
    const events = record()
    const app = fw()
    app.get('/', async function fails() { throw new Error('async failure') })
    app.use(function onError(err: any, req: any, res: any, next: any) { res.status(500).send(err.message) })
    await request(app).get('/').expect(500, 'async failure')
    expect(short(events)).toEqual(['start fails', 'end fails', 'error fails', 'asyncStart fails', 'asyncEnd fails', 'start onError', 'end onError'])
    expect(events[2].error).toBe('async failure')
  })

  describe('thenables (router@2 deprecates them)', () => {
    const given = deprecationsIn([THENABLE])

    it('a thenable whose then throws goes to the error handlers, as without tracing', async () => {
      const events = record()
      const app = fw()
      app.get('/', function thenThrows() { return { then() { throw new Error('then threw') } } })
      app.use(function onError(err: any, req: any, res: any, next: any) { res.status(500).send(err.message) })
      await request(app).get('/').expect(500, 'then threw')
      expect(short(events)).toEqual(['start thenThrows', 'end thenThrows', 'error thenThrows', 'asyncStart thenThrows', 'asyncEnd thenThrows', 'start onError', 'end onError'])
      expect(given).toContain(`switchyard router: ${THENABLE}`)
    })

    it('a thenable that calls its fulfilment callback without checking it', async () => {
      const events = record()
      const app = fw()
      app.use(function sloppy(req: any, res: any, next: any) { return { then(ok: any) { ok('v'); next() } } })
      app.get('/', function root(req: any, res: any) { res.send('reached') })
      await request(app).get('/').expect(200, 'reached')
      expect(short(events)).toContain('start root')
      expect(given).toContain(`switchyard router: ${THENABLE}`)
    })
  })

  it('a rejection with no reason reports the Error that goes to next', async () => {
    const events = record()
    const app = fw()
    app.get('/', function nothing() { return Promise.reject(undefined) })
    app.use(function onError(err: any, req: any, res: any, next: any) { res.status(500).send(err.message) })
    await request(app).get('/').expect(500, 'Rejected promise')
    expect(events.find((e) => e.event === 'error')?.error).toBe('Rejected promise')
  })

  it('next(err): error is published, and the error handler runs inside the call', async () => {
    const events = record()
    const app = fw()
    app.use(function check(req, res, next) { next(new Error('refused')) })
    app.use(function onError(err: any, req: any, res: any, next: any) { res.status(403).send(err.message) })
    await request(app).get('/').expect(403, 'refused')
    expect(short(events)).toEqual(['start check', 'error check', 'start onError', 'end onError', 'end check'])
    expect(events[1].error).toBe('refused')
  })

  it("next('route') is not an error: the next route runs", async () => {
    const events = record()
    const app = fw()
    app.get('/x', function skip(req, res, next) { next('route') })
    app.get('/x', function answer(req, res) { res.send('second') })
    await request(app).get('/x').expect(200, 'second')
    expect(short(events)).toEqual(['start skip', 'start answer', 'end answer', 'end skip'])
    expect(events.some((e) => e.event === 'error')).toBe(false)
  })

  it('nested routers report the full route with every mount pattern', async () => {
    const events = record()
    const app = fw()
    const api = fw.Router({ mergeParams: true })
    const users = fw.Router({ mergeParams: true })
    users.get('/:id', function showUser(req, res) { res.send(`${req.params.v}/${req.params.id}`) })
    api.use('/users', users)
    app.use('/api/:v', api)
    await request(app).get('/api/v1/users/9').expect(200, 'v1/9')
    const handler = events.find((e) => e.name === 'showUser' && e.event === 'start')
    expect(handler).toMatchObject({ route: '/:id', fullRoute: '/api/:v/users/:id', kind: 'request handler' })
    const mounted = events.filter((e) => e.event === 'start' && e.name === 'router').map((e) => [e.route, e.fullRoute])
    expect(mounted).toEqual([['/api/:v', '/api/:v'], ['/users', '/api/:v/users']])
  })

  it('a mounted app reports its mount path too, and leaves it when it passes on', async () => {
    const events = record()
    const app = fw()
    const admin = fw()
    admin.get('/status', function status(req, res, next) { next() })
    app.use('/admin', admin)
    app.get('/admin/status', function fallback(req, res) { res.send('outer') })
    await request(app).get('/admin/status').expect(200, 'outer')
    expect(events.find((e) => e.name === 'status')).toMatchObject({ fullRoute: '/admin/status' })
    expect(events.find((e) => e.name === 'fallback')).toMatchObject({ fullRoute: '/admin/status', route: '/admin/status' })
    expect(events.find((e) => e.name === 'mounted_app')).toMatchObject({ kind: 'middleware', route: '/admin' })
  })
})

describe('switchyard.route', () => {
  it('is published when a route matches, with the full route pattern', async () => {
    const messages: any[] = []
    const onRoute = (m: any) => messages.push(m)
    dc.subscribe('switchyard.route', onRoute)
    try {
      const app = fw()
      const api = fw.Router()
      api.get('/items/:id', (req, res) => res.send('ok'))
      app.use('/api/:v', api)
      await request(app).get('/api/2/items/5').expect(200)
      expect(messages).toHaveLength(1)
      expect(messages[0]).toMatchObject({ route: '/items/:id', fullRoute: '/api/:v/items/:id' })
      expect(messages[0].req.originalUrl).toBe('/api/2/items/5')
    } finally {
      dc.unsubscribe('switchyard.route', onRoute)
    }
  })
})

describe('without subscribers', () => {
  it('publishes nothing and leaves no tracing state on the request', async () => {
    const app = fw()
    let leftover: unknown = 'unset'
    const api = fw.Router()
    api.get('/x', (req: any, res) => { leftover = req[kMountRoute]; res.end() })
    app.use('/api', api)
    expect(layer.hasSubscribers).toBe(false)
    await request(app).get('/api/x').expect(200)
    expect(leftover).toBeUndefined()
  })
})

describe('over HTTP/2', () => {
  it('publishes the same layer events and route as over HTTP/1.1', async () => {
    const { serve } = await import('./support/http2')
    const build = () => {
      const app = fw()
      const api = fw.Router()
      api.get('/items/:id', function item(req, res) { res.send(req.params.id) })
      app.use('/api/:v', api)
      return app
    }
    const routes: string[] = []
    const onRoute = (m: any) => routes.push(`${m.req.httpVersionMajor} ${m.fullRoute}`)
    dc.subscribe('switchyard.route', onRoute)
    const pair = await serve(build(), 'h2c')
    try {
      const events = record()
      const a = await pair.h1({ path: '/api/1/items/5' })
      const h1Events = short(events.splice(0))
      const b = await pair.h2({ path: '/api/1/items/5' })
      expect(b.body.toString()).toBe(a.body.toString())
      expect(short(events)).toEqual(h1Events)
      expect(h1Events).toContain('start item')
      expect(routes).toEqual(['1 /api/:v/items/:id', '2 /api/:v/items/:id'])
    } finally {
      dc.unsubscribe('switchyard.route', onRoute)
      await pair.close()
    }
  })
})

import { describe, expect, it, vi } from 'vitest'
import request from 'supertest'
import express from 'express'
import fw, { Router, Route } from '../src/index'
import { catchAll, reply } from './support/app'

function appWith(router: any) {
  const app = fw()
  app.set('env', 'test')
  app.use(router)
  return app
}

describe('Router(options)', () => {
  it('is callable with or without new and is itself a middleware', async () => {
    const a = Router()
    const b = new (Router as any)()
    expect(typeof a).toBe('function')
    expect(typeof b).toBe('function')
    expect(a).toBeInstanceOf(Router)
    expect(typeof a.call).toBe('function')
    a.get('/x', reply('x'))
    await request(appWith(a)).get('/x').expect(200, 'x')
  })

  it('router.handle requires a callback', () => {
    expect(() => (Router() as any).handle({}, {})).toThrow(new TypeError('argument callback is required'))
  })

  it('caseSensitive: /Foo and /foo differ', async () => {
    const r = Router({ caseSensitive: true })
    r.get('/Foo', reply('Foo'))
    const app = appWith(r)
    await request(app).get('/Foo').expect(200, 'Foo')
    await request(app).get('/foo').expect(404)
  })

  it('is case-insensitive by default', async () => {
    const r = Router()
    r.get('/Foo', reply('Foo'))
    await request(appWith(r)).get('/fOO').expect(200, 'Foo')
  })

  it('strict: /foo and /foo/ differ', async () => {
    const r = Router({ strict: true })
    r.get('/foo', reply('no slash'))
    r.get('/bar/', reply('slash'))
    const app = appWith(r)
    await request(app).get('/foo').expect(200, 'no slash')
    await request(app).get('/foo/').expect(404)
    await request(app).get('/bar/').expect(200, 'slash')
    await request(app).get('/bar').expect(404)
  })

  it('non-strict accepts one trailing slash', async () => {
    const r = Router()
    r.get('/foo', reply('foo'))
    const app = appWith(r)
    await request(app).get('/foo/').expect(200, 'foo')
    await request(app).get('/foo//').expect(404)
  })

  it('mergeParams: keeps the parent params, the child wins on conflict', async () => {
    const child = Router({ mergeParams: true })
    child.get('/:id', reply((req) => JSON.stringify(req.params)))
    const isolated = Router()
    isolated.get('/:id', reply((req) => JSON.stringify(req.params)))
    const app = fw()
    app.use('/a/:user/:id', child)
    app.use('/b/:user', isolated)
    await request(app).get('/a/u1/p1/c1').expect(200, '{"user":"u1","id":"c1"}')
    await request(app).get('/b/u1/c1').expect(200, '{"id":"c1"}')
  })

  it('mergeParams shifts the child\'s indexed params after the parent\'s', async () => {
    const child = Router({ mergeParams: true })
    child.get(/^\/(\w+)$/, reply((req) => JSON.stringify(req.params)))
    const app = fw()
    app.use(/^\/(\d+)/, child)
    await request(app).get('/12/abc').expect(200, '{"0":"12","1":"abc"}')
  })
})

describe('router.use([path], ...fn)', () => {
  it('runs middleware in registration order, for every path when no path is given', async () => {
    const r = Router()
    const seen: string[] = []
    r.use((req: any, res: any, next: any) => { seen.push('a'); next() })
    r.use([(req: any, res: any, next: any) => { seen.push('b'); next() }, [(req: any, res: any, next: any) => { seen.push('c'); next() }]])
    r.get('/deep/path', reply(() => seen.join('')))
    await request(appWith(r)).get('/deep/path').expect(200, 'abc')
  })

  it('matches on segment boundaries and strips the mount path', async () => {
    const r = Router()
    r.use('/blog', reply((req) => `${req.baseUrl}|${req.url}|${req.originalUrl}|${req.path}`))
    const app = appWith(r)
    await request(app).get('/blog/post/1?x=1').expect(200, '/blog|/post/1?x=1|/blog/post/1?x=1|/post/1')
    await request(app).get('/blog').expect(200, '/blog|/|/blog|/')
    await request(app).get('/blogger').expect(404)
  })

  it('restores req.url and req.baseUrl after the mounted middleware calls next()', async () => {
    const r = Router()
    r.use('/a', (req: any, res: any, next: any) => next())
    r.use((req: any, res: any, next: any) => { res.setHeader('X-Seen', `${req.baseUrl}|${req.url}`); next() })
    r.get('/a/b', reply('ok'))
    const res = await request(appWith(r)).get('/a/b').expect(200, 'ok')
    expect(res.headers['x-seen']).toBe('|/a/b')
  })

  it('accepts parameterised and regular-expression mount paths', async () => {
    const r = Router()
    r.use('/u/:name', reply((req) => `${req.params.name} ${req.baseUrl} ${req.url}`))
    r.use(/^\/re\d+/, reply((req) => `${req.baseUrl} ${req.url}`))
    const app = appWith(r)
    await request(app).get('/u/bob/x').expect(200, 'bob /u/bob /x')
    await request(app).get('/re42/y').expect(200, '/re42 /y')
  })

  it('shares middleware between routers mounted on the same path', async () => {
    const one = Router()
    const two = Router()
    one.use((req: any, res: any, next: any) => { req.fromOne = true; next() })
    two.get('/x', reply((req) => String(req.fromOne)))
    const app = fw()
    app.use('/same', one)
    app.use('/same', two)
    await request(app).get('/same/x').expect(200, 'true')
  })

  it('throws for missing or non-function handlers', () => {
    expect(() => Router().use('/x')).toThrow(new TypeError('argument handler is required'))
    expect(() => Router().use('/x', 'nope' as any)).toThrow(new TypeError('argument handler must be a function'))
  })
})

describe('router.route(path) and Route', () => {
  it('chains method handlers on one route, ordered by route creation', async () => {
    const r = Router()
    const route = r.route('/item')
    r.get('/item', reply('second route'))
    route.get(reply('first route'))
    route.post(reply('posted'))
    expect(route).toBeInstanceOf(Route)
    const app = appWith(r)
    await request(app).get('/item').expect(200, 'first route')
    await request(app).post('/item').expect(200, 'posted')
  })

  it('route.all handles every method', async () => {
    const r = Router()
    r.route('/all').all(reply((req) => req.method))
    const app = appWith(r)
    await request(app).delete('/all').expect(200, 'DELETE')
    await request(app).patch('/all').expect(200, 'PATCH')
  })

  it("throws router@2.3's TypeError for a non-function handler, after adding the handlers before it", () => {
    const route = Router().route('/x') as any
    expect(() => route.get(42)).toThrow(new TypeError('argument handler must be a function'))
    expect(() => route.post(function first() {}, {})).toThrow(new TypeError('argument handler must be a function'))
    expect(route.stack.map((l: any) => [l.name, l.method])).toEqual([['first', 'post']])
    expect(() => route.get()).toThrow(new TypeError('argument handler is required'))
  })

  it('sets req.route to the matched route', async () => {
    const r = Router()
    r.get('/users/:id', reply((req) => `${req.route.path} ${Object.keys(req.route.methods)}`))
    await request(appWith(r)).get('/users/1').expect(200, '/users/:id get')
  })

  it("route._handlesMethod reads route.methods' values as truthy or not, as router@2.3 does", () => {
    // (the values are tested for truth without Boolean())
    const cases: Array<[Record<string, unknown>, string, boolean]> = [
      [{ get: true }, 'GET', true],
      [{ get: 1 }, 'GET', true],
      [{ get: 'yes' }, 'HEAD', true],
      [{ get: true, head: 0 }, 'HEAD', true],
      [{ get: 0 }, 'GET', false],
      [{ get: '' }, 'HEAD', false],
      [{ get: null, head: {} }, 'HEAD', true],
      [{ _all: [] }, 'DELETE', true],
      [{ _all: 0, post: NaN }, 'POST', false],
      [{ _all: undefined, post: false }, 'POST', false]
    ]
    for (const [methods, method, expected] of cases) {
      const route = Router().route('/x') as any
      const oracle = express.Router().route('/x') as any
      route.methods = methods
      oracle.methods = methods
      expect({ methods, method, handles: route._handlesMethod(method) }).toEqual({ methods, method, handles: expected })
      expect(oracle._handlesMethod(method)).toBe(expected)
    }
  })

  it('registers m-search by bracket notation', async () => {
    const r = Router() as any
    r['m-search']('/ssdp', reply('found'))
    await request(appWith(r)).get('/ssdp').expect(404)
  })
})

describe('next() signals', () => {
  it("next('route') skips the rest of the route's handlers", async () => {
    const r = Router()
    r.get('/x', (req: any, res: any, next: any) => next('route'), reply('skipped'))
    r.get('/x', reply('next route'))
    await request(appWith(r)).get('/x').expect(200, 'next route')
  })

  it("next('router') leaves the router and continues in the parent", async () => {
    const r = Router()
    r.use((req: any, res: any, next: any) => next('router'))
    r.get('/x', reply('inside'))
    const app = fw()
    app.use(r)
    app.get('/x', reply('outside'))
    await request(app).get('/x').expect(200, 'outside')
  })

  it("next('router') from a route handler leaves the router too", async () => {
    const r = Router()
    r.get('/x', (req: any, res: any, next: any) => next('router'), reply('same route'))
    r.get('/x', reply('later route'))
    const app = fw()
    app.use(r)
    app.get('/x', reply('outside'))
    await request(app).get('/x').expect(200, 'outside')
  })

  it('next(err) skips to the next error handler (arity 4)', async () => {
    const r = Router()
    r.get('/x', (req: any, res: any, next: any) => next(new Error('bad')))
    r.use((req: any, res: any, next: any) => { throw new Error('not an error handler') })
    r.use((err: any, req: any, res: any, next: any) => { res.statusCode = 418; res.end('handled ' + err.message) })
    await request(appWith(r)).get('/x').expect(418, 'handled bad')
  })

  it('an error handler can recover with next()', async () => {
    const r = Router()
    r.use((req: any, res: any, next: any) => next(new Error('e')))
    r.use((err: any, req: any, res: any, next: any) => next())
    r.get('/x', reply('recovered'))
    await request(appWith(r)).get('/x').expect(200, 'recovered')
  })

  it('error handlers inside a route receive route errors', async () => {
    const r = Router()
    r.get('/x', (req: any, res: any, next: any) => next(new Error('in route')), (err: any, req: any, res: any, next: any) => res.end('route caught ' + err.message))
    await request(appWith(r)).get('/x').expect(200, 'route caught in route')
  })
})

describe('promise support', () => {
  it('a thrown error becomes next(err)', async () => {
    const r = Router()
    r.get('/x', () => { throw new Error('sync') })
    r.use(catchAll(500))
    await request(appWith(r)).get('/x').expect(500, 'error: sync')
  })

  it('a rejected promise becomes next(err)', async () => {
    const r = Router()
    r.get('/x', async () => { throw Object.assign(new Error('async'), { status: 409 }) })
    r.use(catchAll())
    await request(appWith(r)).get('/x').expect(409, 'error: async')
  })

  it('a rejection in an error handler goes on to the next error handler', async () => {
    const r = Router()
    r.get('/x', () => { throw new Error('first') })
    r.use(async (err: any, req: any, res: any, next: any) => { throw new Error('second after ' + err.message) })
    r.use(catchAll())
    await request(appWith(r)).get('/x').expect(500, 'error: second after first')
  })

  it('a resolved value is ignored', async () => {
    const r = Router()
    r.get('/x', async (req: any, res: any) => { res.end('done'); return 'ignored' })
    await request(appWith(r)).get('/x').expect(200, 'done')
  })
})

describe('HEAD and OPTIONS', () => {
  it('GET handlers answer HEAD without a body', async () => {
    const r = Router()
    r.get('/x', (req: any, res: any) => { res.setHeader('X-Method', req.method); res.end('body') })
    const res = await request(appWith(r)).head('/x').expect(200)
    expect(res.headers['x-method']).toBe('HEAD')
    expect(res.text).toBeUndefined()
  })

  it('a HEAD route registered first wins over GET', async () => {
    const r = Router()
    r.head('/x', (req: any, res: any) => { res.setHeader('X-Which', 'head'); res.end() })
    r.get('/x', (req: any, res: any) => { res.setHeader('X-Which', 'get'); res.end() })
    const res = await request(appWith(r)).head('/x')
    expect(res.headers['x-which']).toBe('head')
  })

  it('answers OPTIONS with the sorted, unique Allow list', async () => {
    const r = Router()
    r.post('/x', reply('p'))
    r.get('/x', reply('g'))
    r.route('/x').put(reply('u')).get(reply('g2'))
    const res = await request(appWith(r)).options('/x').expect(200, 'GET, HEAD, POST, PUT')
    expect(res.headers.allow).toBe('GET, HEAD, POST, PUT')
    expect(res.headers['content-type']).toBe('text/plain')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  it('an explicit OPTIONS handler takes precedence', async () => {
    const r = Router()
    r.get('/x', reply('g'))
    r.options('/x', reply('custom'))
    await request(appWith(r)).options('/x').expect(200, 'custom')
  })

  it('OPTIONS for an unknown path is a 404', async () => {
    await request(appWith(Router())).options('/none').expect(404)
  })
})

describe('paths', () => {
  it('supports optional parts, optional params and splats', async () => {
    const r = Router()
    r.get('/ab{c}d', reply('abcd'))
    r.get('/user{/:id}', reply((req) => JSON.stringify(req.params)))
    r.get('/files/*path', reply((req) => JSON.stringify(req.params)))
    r.get('/opt{/*rest}', reply((req) => JSON.stringify(req.params)))
    const app = appWith(r)
    await request(app).get('/abd').expect(200, 'abcd')
    await request(app).get('/abcd').expect(200, 'abcd')
    await request(app).get('/user').expect(200, '{}')
    await request(app).get('/user/7').expect(200, '{"id":"7"}')
    await request(app).get('/files/a/b%20c/d').expect(200, '{"path":["a","b c","d"]}')
    await request(app).get('/opt').expect(200, '{}')
    await request(app).get('/opt/x/y').expect(200, '{"rest":["x","y"]}')
  })

  it('supports regular expressions with indexed params', async () => {
    const r = Router()
    r.get(/^\/commits\/(\w+)(?:\.\.(\w+))?$/, reply((req) => JSON.stringify(req.params)))
    await request(appWith(r)).get('/commits/abc..def').expect(200, '{"0":"abc","1":"def"}')
  })

  it('supports arrays of paths', async () => {
    const r = Router()
    r.get(['/one', '/two/:n', /^\/three$/], reply((req) => 'hit ' + JSON.stringify(req.params)))
    const app = appWith(r)
    await request(app).get('/one').expect(200, 'hit {}')
    await request(app).get('/two/2').expect(200, 'hit {"n":"2"}')
    await request(app).get('/three').expect(200, 'hit {}')
  })

  it('throws at registration for invalid patterns', () => {
    expect(() => Router().get('*', reply('x'))).toThrow(/Missing parameter name at index 1/)
    expect(() => Router().get('/:foo(', reply('x'))).toThrow()
    expect(() => Router().use('/?', reply('x'))).toThrow()
  })

  it('gives a 400 for a malformed escape in a param', async () => {
    const r = Router()
    r.get('/u/:id', reply('never'))
    r.use((err: any, req: any, res: any, next: any) => { res.statusCode = err.status; res.end(err.message) })
    await request(appWith(r)).get('/u/%E0%A4%A').expect(400, "Failed to decode param '%E0%A4%A'")
  })

  it('does not match the query string', async () => {
    const r = Router()
    r.get('/q', reply('q'))
    await request(appWith(r)).get('/q?/other=1').expect(200, 'q')
  })

  it('resets req.params per layer', async () => {
    const r = Router()
    r.use('/p/:a', (req: any, res: any, next: any) => { req.params.extra = 'x'; next() })
    r.get('/p/:b', reply((req) => JSON.stringify(req.params)))
    await request(appWith(r)).get('/p/1').expect(200, '{"b":"1"}')
  })
})

describe('static-route index keeps registration order', () => {
  it('interleaves middleware registered between static routes', async () => {
    const r = Router()
    const order: string[] = []
    r.get('/s', (req: any, res: any, next: any) => { order.push('route1'); next() })
    r.use((req: any, res: any, next: any) => { order.push('mw'); next() })
    r.get('/:param', (req: any, res: any, next: any) => { order.push('param'); next() })
    r.get('/s', reply(() => { order.push('route2'); return order.join(',') }))
    await request(appWith(r)).get('/s').expect(200, 'route1,mw,param,route2')
  })

  it('finds the last of a thousand static routes', async () => {
    const r = Router()
    for (let i = 0; i < 1000; i++) r.get(`/r/${i}`, reply(`route ${i}`))
    const app = appWith(r)
    await request(app).get('/r/999').expect(200, 'route 999')
    await request(app).get('/R/500/').expect(200, 'route 500')
    await request(app).get('/r/1000').expect(404)
  })

  it('sees routes added after the first request', async () => {
    const r = Router()
    r.get('/a', reply('a'))
    const app = appWith(r)
    await request(app).get('/a').expect(200, 'a')
    r.get('/b', reply('b'))
    await request(app).get('/b').expect(200, 'b')
  })

  it('handles long synchronous chains without overflowing the stack', async () => {
    const r = Router()
    for (let i = 0; i < 5000; i++) r.use((req: any, res: any, next: any) => next())
    r.get('/', reply('end'))
    await request(appWith(r)).get('/').expect(200, 'end')
  })
})

describe('router.param(name, fn)', () => {
  it('runs before the route, once per value per request', async () => {
    const r = Router()
    const calls = vi.fn()
    r.param('id', (req: any, res: any, next: any, value: string, name: string) => {
      calls(value, name)
      req.loaded = 'item' + value
      next()
    })
    r.get('/item/:id', (req: any, res: any, next: any) => next())
    r.get('/item/:id', reply((req) => req.loaded))
    await request(appWith(r)).get('/item/5').expect(200, 'item5')
    expect(calls).toHaveBeenCalledTimes(1)
    expect(calls).toHaveBeenCalledWith('5', 'id')
  })

  it('passes errors on with next(err), and a thrown error too', async () => {
    const r = Router()
    r.param('a', (req: any, res: any, next: any) => next(Object.assign(new Error('no a'), { status: 404 })))
    r.param('b', () => { throw Object.assign(new Error('no b'), { status: 403 }) })
    r.get('/a/:a', reply('never'))
    r.get('/b/:b', reply('never'))
    r.use(catchAll())
    const app = appWith(r)
    await request(app).get('/a/1').expect(404, 'error: no a')
    await request(app).get('/b/1').expect(403, 'error: no b')
  })

  it('is local to its router (not run for parameters of mounted routers)', async () => {
    const parent = Router()
    const child = Router()
    parent.param('id', (req: any, res: any, next: any) => { req.fromParent = true; next() })
    child.get('/:id', reply((req) => String(Boolean(req.fromParent))))
    parent.use('/c', child)
    await request(appWith(parent)).get('/c/1').expect(200, 'false')
  })

  it('runs param callbacks in the order of the path', async () => {
    const r = Router()
    const order: string[] = []
    r.param('b', (req: any, res: any, next: any) => { order.push('b'); next() })
    r.param('a', (req: any, res: any, next: any) => { order.push('a'); next() })
    r.get('/:a/:b', reply(() => order.join('')))
    await request(appWith(r)).get('/1/2').expect(200, 'ab')
  })

  it('validates its arguments', () => {
    expect(() => Router().param('', () => {})).toThrow(new TypeError('argument name is required'))
    expect(() => Router().param(5 as any, () => {})).toThrow(new TypeError('argument name must be a string'))
    expect(() => (Router() as any).param('id')).toThrow(new TypeError('argument fn is required'))
    expect(() => Router().param('id', 'x' as any)).toThrow(new TypeError('argument fn must be a function'))
  })

  it('a promise-returning param callback that rejects passes the error on', async () => {
    const r = Router()
    r.param('id', async () => { throw Object.assign(new Error('async param'), { status: 410 }) })
    r.get('/:id', reply('never'))
    r.use(catchAll())
    await request(appWith(r)).get('/1').expect(410, 'error: async param')
  })
})

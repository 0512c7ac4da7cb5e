import { describe, expect, it, vi } from 'vitest'
import request from 'supertest'
import fw, { Router } from '../src/index'
import { reply } from './support/app'

describe('app.use([path], ...fn)', () => {
  it('requires a middleware function', () => {
    const app = fw()
    expect(() => app.use()).toThrow(new TypeError('app.use() requires a middleware function'))
    expect(() => app.use('/x')).toThrow(new TypeError('app.use() requires a middleware function'))
    expect(() => app.use([])).toThrow(new TypeError('app.use() requires a middleware function'))
    expect(() => app.use('/x', 'nope')).toThrow(new TypeError('argument handler must be a function'))
  })

  it('accepts arrays and mixes of functions, routers and apps', async () => {
    const app = fw()
    const r = Router()
    r.use((req: any, res: any, next: any) => { req.seq += 'r'; next() })
    const sub = fw()
    sub.use((req: any, res: any, next: any) => { req.seq += 's'; next() })
    app.use((req: any, res: any, next: any) => { req.seq = 'a'; next() }, [r, [sub]])
    app.get('/', reply((req) => req.seq))
    await request(app).get('/').expect(200, 'ars')
  })

  it('mounts on an array of paths', async () => {
    const app = fw()
    app.use(['/one', '/two'], reply((req) => req.baseUrl))
    await request(app).get('/one/x').expect(200, '/one')
    await request(app).get('/two/x').expect(200, '/two')
  })
})

describe('app.use(path, subApp)', () => {
  it('sets mountpath and parent and emits mount with the parent', () => {
    const parent = fw()
    const child = fw()
    const onMount = vi.fn()
    child.on('mount', onMount)
    parent.use('/blog', child)
    expect(child.mountpath).toBe('/blog')
    expect(child.parent).toBe(parent)
    expect(onMount).toHaveBeenCalledWith(parent)
  })

  it('mountpath is the array when mounted on several paths', () => {
    const parent = fw()
    const child = fw()
    parent.use(['/a', '/b'], child)
    expect(child.mountpath).toEqual(['/a', '/b'])
  })

  it('the root app has mountpath "/" and path ""', () => {
    const app = fw()
    expect(app.mountpath).toBe('/')
    expect(app.path()).toBe('')
  })

  it('app.path() joins the mount paths of the parents', () => {
    const a = fw()
    const b = fw()
    const c = fw()
    a.use('/blog', b)
    b.use('/admin', c)
    expect(b.path()).toBe('/blog')
    expect(c.path()).toBe('/blog/admin')
  })

  it('the sub-app sees req.app as itself, the parent sees it restored afterwards', async () => {
    const parent = fw()
    parent.set('name', 'parent')
    const child = fw()
    child.set('name', 'child')
    child.use((req: any, res: any, next: any) => { res.setHeader('X-Inner', req.app.get('name')); next() })
    parent.use('/c', child)
    parent.use(reply((req) => `${req.app.get('name')} ${req.baseUrl}|${req.url}`))
    const res = await request(parent).get('/c/x').expect(200, 'parent |/c/x')
    expect(res.headers['x-inner']).toBe('child')
  })

  it('strips the mount path and sets baseUrl inside the sub-app', async () => {
    const parent = fw()
    const child = fw()
    child.get('/post/:id', reply((req) => `${req.baseUrl}|${req.url}|${req.originalUrl}|${req.params.id}`))
    parent.use('/blog', child)
    await request(parent).get('/blog/post/3?x=1').expect(200, '/blog|/post/3?x=1|/blog/post/3?x=1|3')
  })

  it('errors in the sub-app reach the parent\'s error handlers', async () => {
    const parent = fw()
    const child = fw()
    child.get('/', () => { throw new Error('child failed') })
    parent.use('/c', child)
    parent.use((err: any, req: any, res: any, next: any) => res.end('parent caught ' + err.message))
    await request(parent).get('/c').expect(200, 'parent caught child failed')
  })
})

describe('app.route(path) and app.METHOD(path, ...)', () => {
  it('app.route returns a chainable route', async () => {
    const app = fw()
    app.route('/book').get(reply('get')).post(reply('post'))
    await request(app).get('/book').expect(200, 'get')
    await request(app).post('/book').expect(200, 'post')
  })

  it('has a method for every http.METHODS entry, m-search by bracket', () => {
    const app = fw() as any
    for (const m of ['checkout', 'copy', 'delete', 'get', 'head', 'lock', 'merge', 'mkactivity', 'mkcol', 'move', 'm-search', 'notify', 'options', 'patch', 'post', 'purge', 'put', 'report', 'search', 'subscribe', 'trace', 'unlock', 'unsubscribe']) {
      expect(typeof app[m]).toBe('function')
    }
  })

  it('app.get(name) with one argument reads a setting', () => {
    const app = fw()
    app.set('x', 1)
    expect(app.get('x')).toBe(1)
  })

  it('app.all registers every method', async () => {
    const app = fw()
    app.all('/any', reply((req) => req.method))
    await request(app).put('/any').expect(200, 'PUT')
    await request(app).options('/any').expect(200, 'OPTIONS')
  })

  it('app.router is created lazily with the routing settings', async () => {
    const app = fw()
    app.enable('case sensitive routing')
    app.enable('strict routing')
    const router = app.router
    expect(router).toBe(app.router)
    expect(router.caseSensitive).toBe(true)
    expect(router.strict).toBe(true)
    app.get('/Path/', reply('x'))
    await request(app).get('/path/').expect(404)
    await request(app).get('/Path').expect(404)
    await request(app).get('/Path/').expect(200, 'x')
  })

  it("app.router is the app's own, also read through an object made from the app, as in express@5", async () => {
    const { default: express } = await import('express')
    for (const lib of [fw, express] as any[]) {
      const one = lib()
      const two = lib()
      const derived = Object.create(one)
      expect(derived.router, lib === fw ? 'switchyard' : 'express').toBe(one.router)
      expect(two.router).not.toBe(one.router)
      expect(Object.getOwnPropertyDescriptor(one, 'router')).toMatchObject({ enumerable: true, configurable: true, set: undefined })
      // app.init() again starts a new router
      const before = one.router
      one.init()
      expect(one.router).not.toBe(before)
      expect(one.router).toBe(one.router)
    }
  })
})

describe('app.param(name | names, fn)', () => {
  it('accepts an array of names, called in declared order', async () => {
    const app = fw()
    const order: string[] = []
    app.param(['a', 'b'], (req: any, res: any, next: any, value: string, name: string) => { order.push(`${name}=${value}`); next() })
    app.get('/:a/:b', reply(() => order.join(',')))
    await request(app).get('/1/2').expect(200, 'a=1,b=2')
  })

  it('is not triggered by a mounted app\'s parameters', async () => {
    const parent = fw()
    const child = fw()
    parent.param('id', (req: any, res: any, next: any) => { req.hit = true; next() })
    child.get('/:id', reply((req) => String(Boolean(req.hit))))
    parent.use(child)
    await request(parent).get('/3').expect(200, 'false')
  })
})

describe('app(req, res, next) as middleware of another server', () => {
  it('calls next when nothing matched', async () => {
    const inner = fw()
    inner.get('/inner', reply('inner'))
    const outer = fw()
    outer.use((req: any, res: any, next: any) => inner(req, res, next))
    outer.get('/outer', reply('outer'))
    await request(outer).get('/outer').expect(200, 'outer')
    await request(outer).get('/inner').expect(200, 'inner')
  })
})

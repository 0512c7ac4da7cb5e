import { describe, expect, it } from 'vitest'
import request from 'supertest'
import fw from '../src/index'
import { listen } from './support/diff'
import { send } from './support/req-dump'

/** Handler answering the URL-related properties of req as JSON. */
const urls = (req: any, res: any) => {
  res.setHeader('Content-Type', 'application/json')
  res.end(JSON.stringify({ url: req.url, originalUrl: req.originalUrl, baseUrl: req.baseUrl, path: req.path, method: req.method }))
}

describe('req.path / req.url / req.originalUrl / req.baseUrl', () => {
  it('at the top level', async () => {
    const app = fw()
    app.use(urls)
    const res = await request(app).get('/a%20b/c?x=1')
    expect(res.body).toEqual({ url: '/a%20b/c?x=1', originalUrl: '/a%20b/c?x=1', baseUrl: '', path: '/a%20b/c', method: 'GET' })
  })

  it('inside mounted middleware: the mount path moves to baseUrl', async () => {
    const app = fw()
    app.use('/mnt', urls)
    const res = await request(app).get('/mnt/sub/path?q=1')
    expect(res.body).toEqual({ url: '/sub/path?q=1', originalUrl: '/mnt/sub/path?q=1', baseUrl: '/mnt', path: '/sub/path', method: 'GET' })
  })

  it('inside a mounted router with a parameterised mount path', async () => {
    const app = fw()
    const router = fw.Router()
    router.get('/items', urls)
    app.use('/shop/:shop', router)
    const res = await request(app).get('/shop/42/items')
    expect(res.body).toMatchObject({ url: '/items', baseUrl: '/shop/42', originalUrl: '/shop/42/items', path: '/items' })
  })

  it('path of an absolute-form request URL is its pathname', async () => {
    const app = fw()
    app.use(urls)
    const server = await listen(app)
    try {
      const res = await send(server.port, { path: 'http://example.com/abs/path?x=1' })
      expect(JSON.parse(res.body)).toMatchObject({ url: 'http://example.com/abs/path?x=1', path: '/abs/path' })
    } finally {
      await server.close()
    }
  })

  it('method is the request method', async () => {
    const app = fw()
    app.use(urls)
    expect((await request(app).delete('/')).body.method).toBe('DELETE')
  })
})

describe('req.params / req.route', () => {
  it('holds decoded named parameters and the matched route', async () => {
    const app = fw()
    app.get('/users/:uid/books/:bid', (req: any, res: any) => {
      res.end(JSON.stringify({ params: req.params, path: req.route.path, methods: req.route.methods }))
    })
    const res = await request(app).get('/users/a%20b/books/7')
    expect(JSON.parse(res.text)).toEqual({ params: { uid: 'a b', bid: '7' }, path: '/users/:uid/books/:bid', methods: { get: true } })
  })

  it('is an empty object in middleware and undefined route', async () => {
    const app = fw()
    app.use((req: any, res: any) => { res.end(JSON.stringify({ params: req.params, route: req.route === undefined })) })
    expect(JSON.parse((await request(app).get('/x')).text)).toEqual({ params: {}, route: true })
  })
})

describe('req.body / req.cookies / req.signedCookies', () => {
  it('are undefined until a middleware sets them', async () => {
    const app = fw()
    app.use((req: any, res: any) => {
      res.end(JSON.stringify([req.body === undefined, req.cookies === undefined, req.signedCookies === undefined, 'body' in req]))
    })
    expect(JSON.parse((await request(app).post('/').send('a=1')).text)).toEqual([true, true, true, false])
  })
})

// Routing matrix: the same app built with switchyard and with express@5,
// the same raw requests to both; status, headers and body must be equal.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import express from 'express'
import fw from '../../src/index'
import { comparable, listen, request, type RawRequest } from '../support/diff'

/** Answer with what routing decided, without depending on res.send. */
function dump(tag: string) {
  return (req: any, res: any) => {
    const body = JSON.stringify({
      tag,
      params: req.params,
      url: req.url,
      baseUrl: req.baseUrl,
      originalUrl: req.originalUrl,
      route: req.route ? String(req.route.path) : null,
      nullProto: Object.getPrototypeOf(req.params) === null
    })
    res.setHeader('Content-Type', 'application/json')
    res.end(body)
  }
}

function build(lib: any) {
  const app = lib()
  app.set('env', 'production')

  // plain and parameterised routes
  app.get('/', dump('root'))
  app.get('/static/path', dump('static'))
  app.get('/users/:id', dump('user'))
  app.get('/users/:id/books/:bookId', dump('book'))
  app.get('/opt{/:maybe}', dump('optional'))
  app.get('/ab{c}d', dump('abcd'))
  app.get('/files/*rest', dump('splat'))
  app.get('/any{/*rest}', dump('optional-splat'))
  app.get(/^\/re\/(\d+)$/, dump('regexp'))
  app.get(/^\/named\/(?<year>\d{4})\/(?<month>\d{2})$/, dump('named-regexp'))
  app.get(['/arr1', '/arr2/:x'], dump('array'))
  app.post('/post-only', dump('post'))
  app.put('/users/:id', dump('put-user'))
  app.head('/head-first', (req: any, res: any) => { res.setHeader('X-Head', 'own'); res.end() })
  app.get('/head-first', dump('get-after-head'))
  app.get('/get-head', dump('get-for-head'))
  app.all('/all', dump('all'))
  app['m-search']('/msearch', dump('m-search'))
  app.route('/chain').get(dump('chain-get')).post(dump('chain-post'))

  // next('route') and next('router')
  app.get('/skip', (req: any, res: any, next: any) => next('route'), dump('never'))
  app.get('/skip', dump('after-skip'))
  const exiting = lib.Router()
  exiting.get('/leave', (req: any, res: any, next: any) => next('router'))
  exiting.get('/leave', dump('not-reached'))
  app.use('/exit', exiting)
  app.get('/exit/leave', dump('after-router-exit'))

  // errors: thrown, async, next(err), error handlers by arity
  app.get('/throw', () => { throw new Error('sync boom') })
  app.get('/reject', async () => { const e: any = new Error('async'); e.status = 409; throw e })
  app.get('/next-err', (req: any, res: any, next: any) => { const e: any = new Error('x'); e.statusCode = 422; next(e) })
  app.get('/headers-err', (req: any, res: any, next: any) => { const e: any = new Error('x'); e.status = 401; e.headers = { 'WWW-Authenticate': 'Basic' }; next(e) })
  app.get('/bad-status', (req: any, res: any, next: any) => { const e: any = new Error('x'); e.status = 200; next(e) })
  app.get('/handled', (req: any, res: any, next: any) => next(new Error('handled')))
  app.use('/handled', (err: any, req: any, res: any, next: any) => { res.statusCode = 503; res.end('caught: ' + err.message) })

  // mounted routers
  const users = lib.Router()
  users.get('/', dump('users-index'))
  users.get('/:uid', dump('users-show'))
  users.use('/:uid/posts', (() => {
    const posts = lib.Router({ mergeParams: true })
    posts.get('/:pid', dump('posts-show'))
    return posts
  })())
  app.use('/api/users', users)

  const strict = lib.Router({ strict: true })
  strict.get('/exact/', dump('strict-slash'))
  strict.get('/exact', dump('strict-noslash'))
  app.use('/strict', strict)

  const sensitive = lib.Router({ caseSensitive: true })
  sensitive.get('/Case', dump('case'))
  app.use('/cs', sensitive)
  app.get('/insensitive/Path', dump('insensitive'))

  // middleware paths and url stripping
  app.use('/mw', (req: any, res: any, next: any) => { res.setHeader('X-Mw', `${req.baseUrl}|${req.url}`); next() })
  app.get('/mw/inner', dump('mw-inner'))
  app.use('/mwend', dump('mw-end'))
  app.use('/p/:section', dump('mw-param'))

  // param triggers
  app.param('pid2', (req: any, res: any, next: any, val: string) => { req.params.pid2 = 'P' + val; next() })
  app.param(['a', 'b'], (req: any, res: any, next: any, val: string, name: string) => {
    res.setHeader('X-Param-' + name, val)
    next()
  })
  app.get('/param/:pid2', dump('param'))
  app.get('/pair/:a/:b', dump('pair'))
  app.param('bad', (req: any, res: any, next: any) => next(Object.assign(new Error('bad param'), { status: 400 })))
  app.get('/badparam/:bad', dump('never'))

  // mergeParams: the parent's params merged under the child's (by the
  // matcher itself when the router has no param trigger)
  const mp = lib.Router({ mergeParams: true })
  mp.get('/:id', dump('mp-same-name'))
  mp.get('/opt{/:extra}', dump('mp-optional'))
  mp.get('/static-leaf', dump('mp-static'))
  mp.get(/^\/re\/(\d+)$/, dump('mp-regexp'))
  mp.get('/q/:"0"', dump('mp-quoted-index'))
  mp.get('/proto/:__proto__', dump('mp-proto'))
  mp.get('/wild/*rest', dump('mp-wildcard'))
  mp.use('/deeper/:extra', (() => {
    const r = lib.Router({ mergeParams: true })
    r.get('/:leaf', dump('mp-deeper'))
    r.use((req: any, res: any, next: any) => { res.setHeader('X-Mw-Params', JSON.stringify(req.params)); next() })
    r.get('/mw/after', dump('mp-after-mw'))
    return r
  })())
  app.use('/mp/:id/:extra', mp)
  const mpp = lib.Router({ mergeParams: true })
  mpp.param('id', (req: any, res: any, next: any, val: string) => { res.setHeader('X-Id', val); next() })
  mpp.param('top', (req: any, res: any, next: any, val: string) => { res.setHeader('X-Top', val); next() })
  mpp.get('/:id', dump('mpp'))
  app.use('/mpp/:top', mpp)
  const mreg = lib.Router({ mergeParams: true })
  mreg.get(/^\/(\d+)$/, dump('mreg'))
  mreg.get('/:"0"/x', dump('mreg-quoted'))
  app.use(/^\/mreg\/(\d+)/, mreg)

  // sub-app
  const sub = lib()
  sub.get('/', dump('subapp-root'))
  sub.get('/:x', (req: any, res: any) => { res.setHeader('X-Mount', String(req.app.mountpath)); dump('subapp-x')(req, res) })
  app.use('/sub', sub)

  return app
}

const cases: RawRequest[] = [
  { path: '/' },
  { path: '/?q=1' },
  { path: '/static/path' },
  { path: '/static/path/' },
  { path: '/STATIC/PATH' },
  { path: '/static/path//' },
  { path: '/static' },
  { path: '/users/42' },
  { path: '/users/42/' },
  { path: '/users/a%20b' },
  { path: '/users/%E0%A4%A' },
  { path: '/users/42/books/7' },
  { path: '/opt' },
  { path: '/opt/yes' },
  { path: '/abd' },
  { path: '/abcd' },
  { path: '/abxd' },
  { path: '/files/a/b/c.txt' },
  { path: '/files' },
  { path: '/any' },
  { path: '/any/x/y' },
  { path: '/re/123' },
  { path: '/re/abc' },
  { path: '/named/2024/05' },
  { path: '/arr1' },
  { path: '/arr2/zz' },
  { path: '/post-only' },
  { method: 'POST', path: '/post-only' },
  { method: 'PUT', path: '/users/9' },
  { method: 'DELETE', path: '/users/9' },
  { method: 'HEAD', path: '/head-first' },
  { method: 'HEAD', path: '/get-head' },
  { method: 'HEAD', path: '/post-only' },
  { method: 'OPTIONS', path: '/users/9' },
  { method: 'OPTIONS', path: '/chain' },
  { method: 'OPTIONS', path: '/get-head' },
  { method: 'OPTIONS', path: '/nothing-here' },
  { method: 'PATCH', path: '/all' },
  { method: 'M-SEARCH', path: '/msearch' },
  { path: '/chain' },
  { method: 'POST', path: '/chain' },
  { path: '/skip' },
  { path: '/exit/leave' },
  { path: '/throw' },
  { path: '/reject' },
  { path: '/next-err' },
  { path: '/headers-err' },
  { path: '/bad-status' },
  { path: '/handled' },
  { path: '/api/users' },
  { path: '/api/users/' },
  { path: '/api/users/5' },
  { path: '/api/users/5/posts/6' },
  { path: '/api/usersx' },
  { path: '/strict/exact/' },
  { path: '/strict/exact' },
  { path: '/cs/Case' },
  { path: '/cs/case' },
  { path: '/insensitive/path' },
  { path: '/mw/inner' },
  { path: '/mw/inner?x=y' },
  { path: '/mwend' },
  { path: '/mwend/' },
  { path: '/mwend/deeper/still?z=1' },
  { path: '/p/news/today' },
  { path: '/param/12' },
  { path: '/pair/1/2' },
  { path: '/badparam/1' },
  { path: '/mp/1/2/9' },
  { path: '/mp/1/2/opt' },
  { path: '/mp/1/2/opt/x' },
  { path: '/mp/1/2/static-leaf' },
  { path: '/mp/1/2/re/5' },
  { path: '/mp/1/2/q/zero' },
  { path: '/mp/1/2/proto/x' },
  { path: '/mp/1/2/wild/a/b%20c' },
  { path: '/mp/1/2/deeper/e/leaf' },
  { path: '/mp/1/2/deeper/e/mw/after' },
  { path: '/mp/1/2/%E0%A4%A' },
  { path: '/mpp/T/I' },
  { path: '/mreg/7/8' },
  { path: '/mreg/7/z/x' },
  { path: '/sub' },
  { path: '/sub/' },
  { path: '/sub/thing' },
  { path: '/nowhere' },
  { path: '/no<where>' },
  { method: 'POST', path: '/nowhere', headers: { 'Content-Type': 'text/plain' }, body: 'hello' },
  { path: 'http://example.com/users/3' },
  { path: '/users/3#frag' }
]

describe('routing matrix: switchyard vs express@5', () => {
  let ours: Awaited<ReturnType<typeof listen>>
  let theirs: Awaited<ReturnType<typeof listen>>
  beforeAll(async () => {
    // production-mode apps log unhandled errors; the matrix provokes several on purpose
    vi.spyOn(console, 'error').mockImplementation(() => {})
    ours = await listen(build(fw))
    theirs = await listen(build(express))
  })
  afterAll(async () => {
    await ours.close()
    await theirs.close()
  })

  it('has at least 60 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60)
  })

  for (const c of cases) {
    it(`${c.method ?? 'GET'} ${c.path}`, async () => {
      const a = comparable(await request(ours.port, c))
      const b = comparable(await request(theirs.port, c))
      expect(a).toEqual(b)
    })
  }
})

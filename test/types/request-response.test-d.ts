// Request/Response generics, body typing and global augmentation.
import { describe, expectTypeOf, test } from 'vitest'
import fw, { type Request, type Response, type RequestHandler, type Ranges, type ParsedQs, type NextFunction } from 'switchyardjs'

interface User {
  id: string
  roles: string[]
}

declare global {
  namespace Express {
    interface Request {
      user?: User
    }
    interface Locals {
      requestId: string
    }
  }
}

describe('Request<P, ResBody, ReqBody, ReqQuery, Locals>', () => {
  test('body is any by default, so existing code compiles unchanged', () => {
    expectTypeOf<Request['body']>().toBeAny()
    fw().post('/x', (req, res) => {
      expectTypeOf(req.body).toBeAny()
      const name: string = req.body.name
      res.send(name)
    })
  })
  test('ReqBody and ReqQuery type body and query', () => {
    type Body = { title: string; tags?: string[] }
    type Query = { page?: string }
    const create: RequestHandler<{ id: string }, { ok: boolean }, Body, Query> = (req, res) => {
      expectTypeOf(req.body.title).toBeString()
      expectTypeOf(req.query.page).toEqualTypeOf<string | undefined>()
      // @ts-expect-error not in Body
      req.body.nope
      res.json({ ok: true })
      // @ts-expect-error ResBody is { ok: boolean }
      res.json({ ok: 'yes' })
    }
    fw().post('/items/:id', create)
  })
  test('the routing method generics type the body too', () => {
    fw().post<'/items', {}, unknown, { n: number }>('/items', (req) => {
      expectTypeOf(req.body.n).toBeNumber()
    })
  })
  test('request properties', () => {
    fw().get('/', (req) => {
      expectTypeOf(req.get('host')).toEqualTypeOf<string | undefined>()
      expectTypeOf(req.get('set-cookie')).toEqualTypeOf<string[] | undefined>()
      expectTypeOf(req.accepts('json', 'html')).toEqualTypeOf<string | false>()
      expectTypeOf(req.accepts()).toEqualTypeOf<string[]>()
      expectTypeOf(req.acceptsLanguages(['en', 'fr'])).toEqualTypeOf<string | false>()
      expectTypeOf(req.is('json')).toEqualTypeOf<string | false | null>()
      expectTypeOf(req.range(100)).toEqualTypeOf<Ranges | -1 | -2 | undefined>()
      expectTypeOf(req.ip).toEqualTypeOf<string | undefined>()
      expectTypeOf(req.ips).toEqualTypeOf<string[]>()
      expectTypeOf(req.hostname).toBeString()
      expectTypeOf(req.protocol).toBeString()
      expectTypeOf(req.secure).toBeBoolean()
      expectTypeOf(req.fresh).toBeBoolean()
      expectTypeOf(req.xhr).toBeBoolean()
      expectTypeOf(req.subdomains).toEqualTypeOf<string[]>()
      expectTypeOf(req.query).toEqualTypeOf<ParsedQs>()
      expectTypeOf(req.originalUrl).toBeString()
      expectTypeOf(req.baseUrl).toBeString()
      expectTypeOf(req.url).toBeString()
      expectTypeOf(req.method).toBeString()
      expectTypeOf(req.route.path).toBeString()
      expectTypeOf(req.app).toMatchTypeOf<import('switchyardjs').Application>()
      expectTypeOf(req.headers).toEqualTypeOf<import('node:http').IncomingHttpHeaders>()
    })
  })
})

describe('Response<ResBody, Locals>', () => {
  test('methods chain', () => {
    fw().get('/', (_req, res) => {
      expectTypeOf(res.status(201)).toEqualTypeOf(res)
      res.status(200).set('X-A', 'b').set({ 'X-B': 'c', 'X-N': 2 }).type('json').vary('Accept').append('Link', ['<a>']).json({ a: 1 })
      res.links({ next: '/p/2' }).location('/x').attachment('a.pdf')
      expectTypeOf(res.get('x')).toEqualTypeOf<string | undefined>()
      res.format({ json: () => res.json({}), default: (_q, r) => r.sendStatus(406) })
      res.redirect('/login')
      res.redirect(301, '/login')
      res.render('view', { a: 1 }, (err, html) => res.send(html))
      expectTypeOf(res.headersSent).toBeBoolean()
      expectTypeOf(res.req).toEqualTypeOf<Request>()
    })
  })
  test('ResBody types send and json', () => {
    fw().get('/n', (_req, res: Response<{ n: number }>) => {
      res.json({ n: 1 })
      // @ts-expect-error n is a number
      res.send({ n: '1' })
    })
  })
  test('Locals type res.locals, merged with Express.Locals', () => {
    fw().get('/l', (_req, res: Response<any, { theme: 'dark' | 'light' }>) => {
      expectTypeOf(res.locals.theme).toEqualTypeOf<'dark' | 'light'>()
      expectTypeOf(res.locals.requestId).toBeString()
    })
  })
})

describe('global augmentation (declare global namespace Express)', () => {
  test('adds to Request', () => {
    fw().get('/me', (req, res) => {
      expectTypeOf(req.user).toEqualTypeOf<User | undefined>()
      if (!req.user) return res.sendStatus(401)
      res.json(req.user.roles)
    })
    const requireAdmin = (req: Request, res: Response, next: NextFunction) => {
      if (req.user?.roles.includes('admin')) return next()
      res.sendStatus(403)
    }
    fw().use(requireAdmin)
  })
})

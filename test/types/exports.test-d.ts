// Every exported value and type of 'switchyard' and 'switchyardjs/body-parser'.
import { describe, expectTypeOf, test } from 'vitest'
import type { Server } from 'node:http'
import fw, {
  Router,
  Route,
  json,
  raw,
  text,
  urlencoded,
  static as serveStatic,
  application,
  request,
  response,
  type Application,
  type BodyParserError,
  type BodyParserErrorType,
  type CookieOptions,
  type RouteListing,
  type Errback,
  type ErrorRequestHandler,
  type Express,
  type HttpError,
  type IRoute,
  type IRouter,
  type NextFunction,
  type Options,
  type OptionsJson,
  type OptionsText,
  type OptionsUrlencoded,
  type ParamsDictionary,
  type ParsedQs,
  type Request,
  type RequestHandler,
  type Response,
  type RouterOptions,
  type ServeStaticOptions,
  type SendFileOptions,
  type StrictRequest,
  type Switchyard
} from 'switchyardjs'
import bodyParser, { type BodyParser } from 'switchyardjs/body-parser'

describe('fw()', () => {
  test('creates an Express application', () => {
    expectTypeOf(fw).toEqualTypeOf<Switchyard>()
    expectTypeOf(fw()).toEqualTypeOf<Express>()
    expectTypeOf<Express>().toMatchTypeOf<Application>()
  })
  test('the values hanging off fw are the named exports', () => {
    expectTypeOf(fw.Router).toEqualTypeOf(Router)
    expectTypeOf(fw.Route).toEqualTypeOf(Route)
    expectTypeOf(fw.json).toEqualTypeOf(json)
    expectTypeOf(fw.static).toEqualTypeOf(serveStatic)
    expectTypeOf(application).toEqualTypeOf<Application>()
    expectTypeOf(request).toEqualTypeOf<Request>()
    expectTypeOf(response).toEqualTypeOf<Response>()
  })
})

describe('Application', () => {
  const app = fw()
  test('settings', () => {
    expectTypeOf(app.set('etag', 'strong')).toEqualTypeOf<Express>()
    expectTypeOf(app.get('env')).toBeAny()
    expectTypeOf(app.enabled('trust proxy')).toBeBoolean()
    expectTypeOf(app.enable('x')).toEqualTypeOf<Express>()
    expectTypeOf(app.locals.title).toBeAny()
    expectTypeOf(app.mountpath).toEqualTypeOf<string | string[]>()
    expectTypeOf(app.path()).toBeString()
  })
  test('listen returns an http.Server', () => {
    expectTypeOf(app.listen(0)).toEqualTypeOf<Server>()
    expectTypeOf(app.listen(0, () => {})).toEqualTypeOf<Server>()
    expectTypeOf(app.listen).toBeCallableWith('/tmp/sock')
  })
  test('the app is a request listener and mounts apps and routers', () => {
    expectTypeOf(app).toBeCallableWith({} as import('node:http').IncomingMessage, {} as import('node:http').ServerResponse)
    app.use(fw())
    app.use('/admin', fw(), Router())
    app.on('mount', (parent) => expectTypeOf(parent).toEqualTypeOf<Application>())
  })
  test('engine and render', () => {
    app.engine('html', (path, options, cb) => cb(null, `${path}${JSON.stringify(options)}`))
    // typed as @types/express types them, so code written for it compiles
    app.render('index', { a: 1 }, (err, html) => {
      expectTypeOf(err).toEqualTypeOf<Error>()
      expectTypeOf(html).toEqualTypeOf<string>()
    })
    const rendered = new Promise<string>((resolve, reject) => app.render('mail', (err: Error, html: string) => (err ? reject(err) : resolve(html))))
    expectTypeOf(rendered).toEqualTypeOf<Promise<string>>()
    app.engine('txt', (path: string, options: object, cb: (err: unknown, out?: string) => void) => cb(null, path))
  })
  test('app.param', () => {
    app.param('id', (req, res, next, value, name) => {
      expectTypeOf(name).toBeString()
      next()
    })
  })
})

describe('Router and Route', () => {
  test('Router() and new Router()', () => {
    expectTypeOf(Router()).toEqualTypeOf<Router>()
    expectTypeOf(new Router()).toEqualTypeOf<Router>()
    expectTypeOf(Router).toBeCallableWith({ caseSensitive: true, strict: false } satisfies RouterOptions)
    expectTypeOf<Router>().toMatchTypeOf<IRouter>()
    expectTypeOf<Router>().toMatchTypeOf<RequestHandler>()
  })
  test('new Route(path)', () => {
    const route = new Route('/x/:id')
    expectTypeOf(route).toEqualTypeOf<IRoute<'/x/:id'>>()
    expectTypeOf(route.path).toBeString()
    route.get((req) => expectTypeOf(req.params).toEqualTypeOf<{ id: string }>())
  })
})

describe('handlers', () => {
  test('RequestHandler and NextFunction', () => {
    const h: RequestHandler = (req, res, next) => {
      expectTypeOf(req.params).toEqualTypeOf<ParamsDictionary>()
      expectTypeOf(req.query).toEqualTypeOf<ParsedQs>()
      expectTypeOf(next).toEqualTypeOf<NextFunction>()
      next('route')
      next('router')
      next(new Error('x'))
    }
    const asyncHandler: RequestHandler = async (_req, res) => {
      res.send('ok')
    }
    expectTypeOf([h, asyncHandler]).items.toMatchTypeOf<RequestHandler>()
  })
  test('ErrorRequestHandler', () => {
    const e: ErrorRequestHandler = (err, _req, res, next) => {
      expectTypeOf(err).toBeAny()
      if (res.headersSent) return next(err)
      res.status(500).send('error')
    }
    fw().use(e)
  })
})

describe('body parsers', () => {
  test('option types', () => {
    json({ limit: '1mb', strict: false, reviver: (_k, v) => v, type: ['json', '*/*+json'], verify: (_req, _res, buf) => buf.length } satisfies OptionsJson)
    text({ defaultCharset: 'latin1', type: (req) => req.headers['content-type'] === 'x' } satisfies OptionsText)
    urlencoded({ extended: true, parameterLimit: 10, depth: 5, charsetSentinel: true, interpretNumericEntities: true } satisfies OptionsUrlencoded)
    raw({ inflate: false, limit: 1024 } satisfies Options)
    // @ts-expect-error limit is a number or a string
    json({ limit: true })
    // @ts-expect-error unknown option
    urlencoded({ extend: true })
  })
  test('switchyardjs/body-parser', () => {
    expectTypeOf(bodyParser).toEqualTypeOf<BodyParser>()
    expectTypeOf(bodyParser.json).toEqualTypeOf(json)
    expectTypeOf(bodyParser()).toBeNever()
    fw().use(bodyParser.json(), bodyParser.urlencoded({ extended: false }))
  })
  test('BodyParserError.type is the union of the error kinds', () => {
    expectTypeOf<BodyParserError['type']>().toEqualTypeOf<BodyParserErrorType>()
    expectTypeOf<'entity.too.large'>().toMatchTypeOf<BodyParserErrorType>()
    expectTypeOf<'entity.parse.failed'>().toMatchTypeOf<BodyParserErrorType>()
    expectTypeOf<'nope'>().not.toMatchTypeOf<BodyParserErrorType>()
    expectTypeOf<BodyParserError>().toMatchTypeOf<HttpError>()
    expectTypeOf<HttpError['status']>().toBeNumber()
    expectTypeOf<HttpError['expose']>().toBeBoolean()
  })
})

describe('static and files', () => {
  test('ServeStaticOptions', () => {
    const o: ServeStaticOptions = { dotfiles: 'deny', maxAge: '1d', index: false, extensions: ['html'], setHeaders: (res, path) => res.setHeader('X-Path', path) }
    fw().use(serveStatic('public', o))
    // a string, as serve-static's types have it: options declared apart widen to string
    const apart = { dotfiles: 'ignore', maxAge: '1d' }
    serveStatic('public', apart)
  })
  test('SendFileOptions, Errback', () => {
    fw().get('/f', (_req, res) => {
      const opts: SendFileOptions = { root: '/srv', maxAge: 1000, headers: { 'X-A': '1' }, dotfiles: 'allow' }
      const cb: Errback = (err) => expectTypeOf(err).toEqualTypeOf<Error | undefined>()
      res.sendFile('a.txt', opts, cb)
      res.download('a.txt', 'b.txt', opts, cb)
    })
  })
  test('CookieOptions', () => {
    const c: CookieOptions = { maxAge: 1000, httpOnly: true, sameSite: 'strict', secure: true, signed: true, priority: 'high', partitioned: true }
    fw().get('/c', (_req, res) => {
      res.cookie('a', 'b', c).clearCookie('x')
    })
    // @ts-expect-error sameSite has a fixed set of values
    const bad: CookieOptions = { sameSite: 'sometimes' }
  })
  test('StrictRequest', () => {
    expectTypeOf<StrictRequest['body']>().toBeUnknown()
    expectTypeOf<StrictRequest<{ id: string }, any, { n: number }>['body']>().toEqualTypeOf<{ n: number }>()
  })
})

describe('router@2.3 introspection', () => {
  test('router.listRoutes(), on a router and on app.router', () => {
    const app = fw()
    const admin = Router()
    app.use('/admin', admin)
    const list = app.router.listRoutes()
    expectTypeOf(list).toEqualTypeOf<RouteListing[]>()
    expectTypeOf(list[0].path).toEqualTypeOf<string | RegExp>()
    expectTypeOf(list[0].methods).toEqualTypeOf<string[] | undefined>()
    expectTypeOf(admin.listRoutes()[0].router?.listRoutes).toEqualTypeOf<(() => RouteListing[]) | undefined>()
    // @ts-expect-error express@5.3 has no app.listRoutes: it is the router's
    app.listRoutes()
  })
})

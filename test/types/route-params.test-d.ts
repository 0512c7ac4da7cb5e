// Route parameters inferred from path literals (path-to-regexp 8 syntax).
import { describe, expectTypeOf, test } from 'vitest'
import fw, { Router, type ParamsDictionary, type RouteParameters, type Request } from 'switchyardjs'

describe('RouteParameters<Path>', () => {
  test('named parameters are strings', () => {
    expectTypeOf<RouteParameters<'/users/:id'>>().toEqualTypeOf<{ id: string }>()
    expectTypeOf<RouteParameters<'/users/:userId/books/:bookId'>>().toEqualTypeOf<{ userId: string; bookId: string }>()
  })
  test('parameters inside braces are optional', () => {
    expectTypeOf<RouteParameters<'/users/:id/{:format}'>>().toEqualTypeOf<{ id: string; format?: string }>()
    expectTypeOf<RouteParameters<'/user{/:id}'>>().toEqualTypeOf<{ id?: string }>()
    expectTypeOf<RouteParameters<'/a{/:b{/:c}}'>>().toEqualTypeOf<{ b?: string; c?: string }>()
  })
  test('wildcards are arrays of segments', () => {
    expectTypeOf<RouteParameters<'/files/*path'>>().toEqualTypeOf<{ path: string[] }>()
    expectTypeOf<RouteParameters<'/{*splat}'>>().toEqualTypeOf<{ splat?: string[] }>()
  })
  test('names end at the first non-identifier character', () => {
    expectTypeOf<RouteParameters<'/:file.:ext'>>().toEqualTypeOf<{ file: string; ext: string }>()
    expectTypeOf<RouteParameters<'/:from-:to'>>().toEqualTypeOf<{ from: string; to: string }>()
    expectTypeOf<RouteParameters<'/:a_b$1'>>().toEqualTypeOf<{ a_b$1: string }>()
    expectTypeOf<RouteParameters<'/:café'>>().toEqualTypeOf<{ café: string }>()
  })
  test('quoted names and escapes', () => {
    expectTypeOf<RouteParameters<'/:"with space"'>>().toEqualTypeOf<{ 'with space': string }>()
    expectTypeOf<RouteParameters<'/time\\:now/:id'>>().toEqualTypeOf<{ id: string }>()
    expectTypeOf<RouteParameters<'/\\{literal\\}/:id'>>().toEqualTypeOf<{ id: string }>()
  })
  test('a path without parameters gives an empty object', () => {
    expectTypeOf<RouteParameters<'/'>>().toEqualTypeOf<{}>()
    expectTypeOf<RouteParameters<'/about/team'>>().toEqualTypeOf<{}>()
  })
  test('a non-literal string gives the dictionary', () => {
    expectTypeOf<RouteParameters<string>>().toEqualTypeOf<ParamsDictionary>()
  })
})

describe('app.METHOD(path, handler) infers req.params', () => {
  const app = fw()
  test('from a literal path', () => {
    app.get('/users/:id/{:format}', (req, res) => {
      expectTypeOf(req.params).toEqualTypeOf<{ id: string; format?: string }>()
      expectTypeOf(req.params.id).toBeString()
      // @ts-expect-error 'name' is not a parameter of this path
      req.params.name
      res.send(req.params.id)
    })
    app.post('/files/*path', (req) => {
      expectTypeOf(req.params.path).toEqualTypeOf<string[]>()
    })
    app.delete('/', (req) => {
      // @ts-expect-error no parameters in '/'
      req.params.id
    })
  })
  test('through several handlers, all methods and all()', () => {
    app.put(
      '/a/:x',
      (req, _res, next) => {
        expectTypeOf(req.params.x).toBeString()
        next()
      },
      (req) => expectTypeOf(req.params).toEqualTypeOf<{ x: string }>()
    )
    app.all('/b/:y', (req) => expectTypeOf(req.params).toEqualTypeOf<{ y: string }>())
    app.patch('/c/:z', (req) => expectTypeOf(req.params).toEqualTypeOf<{ z: string }>())
    app['m-search']('/d/:w', (req) => expectTypeOf(req.params).toEqualTypeOf<{ w: string }>())
  })
  test('a regular expression, an array or a non-literal string falls back to the dictionary', () => {
    app.get(/^\/re\/(\d+)$/, (req) => expectTypeOf(req.params).toEqualTypeOf<ParamsDictionary>())
    app.get(['/a/:id', '/b/:id'], (req) => expectTypeOf(req.params).toEqualTypeOf<ParamsDictionary>())
    const dynamic: string = '/x/:id'
    app.get(dynamic, (req) => {
      expectTypeOf(req.params).toEqualTypeOf<ParamsDictionary>()
      expectTypeOf(req.params.anything).toBeString()
    })
  })
  test('an explicit P wins over inference', () => {
    app.get<{ id: string; extra: string }>('/users/:id', (req) => {
      expectTypeOf(req.params.extra).toBeString()
    })
  })
  test('app.use(path, handler) infers too', () => {
    app.use('/tenants/:tenant', (req, _res, next) => {
      expectTypeOf(req.params).toEqualTypeOf<{ tenant: string }>()
      next()
    })
  })
  test('app.route(path) passes the parameters to every method', () => {
    app
      .route('/books/:isbn')
      .get((req) => expectTypeOf(req.params).toEqualTypeOf<{ isbn: string }>())
      .put((req) => {
        // @ts-expect-error 'id' is not in '/books/:isbn'
        req.params.id
      })
  })
})

describe('Router(options)', () => {
  test('a plain router infers parameters', () => {
    const router = Router()
    router.get('/:id', (req) => expectTypeOf(req.params).toEqualTypeOf<{ id: string }>())
    router.route('/:a/:b').post((req) => expectTypeOf(req.params).toEqualTypeOf<{ a: string; b: string }>())
  })
  test('a mergeParams router keeps the dictionary', () => {
    const router = Router({ mergeParams: true })
    expectTypeOf(router).toEqualTypeOf<Router<true>>()
    router.get('/:id', (req) => {
      expectTypeOf(req.params).toEqualTypeOf<ParamsDictionary>()
      expectTypeOf(req.params.parentParam).toBeString()
    })
    router.route('/:id').get((req) => expectTypeOf(req.params).toEqualTypeOf<ParamsDictionary>())
  })
  test('routing methods chain and return the router', () => {
    const router = Router({ caseSensitive: true, strict: true })
    expectTypeOf(router.get('/', () => {})).toEqualTypeOf<Router>()
    expectTypeOf(fw().get('/', () => {}).set('x', 1)).toEqualTypeOf<ReturnType<typeof fw>>()
  })
  test('a handler typed with the default Request is accepted by an inferring route', () => {
    const handler = (req: Request, res: fw.Response) => res.send(req.params.id)
    fw().get('/users/:id', handler)
    Router().get('/{:opt}', handler)
  })
})

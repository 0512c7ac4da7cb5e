// Names and meanings shared with @types/express and express-serve-static-core.
import { describe, expectTypeOf, test } from 'vitest'
import type { Stats } from 'node:fs'
import fw, {
  type ByteRange,
  type Dictionary,
  type Errback,
  type Handler,
  type IRoute,
  type IRouterHandler,
  type IRouterUseHandler,
  type Params,
  type ParamsDictionary,
  type ParamsFlatDictionary,
  type PathArgumentParams,
  type PathParams,
  type Query,
  type ParsedQs,
  type Request,
  type RequestHandler,
  type RequestRanges,
  type Response,
  type WildcardParamsDictionary
} from 'switchyardjs'
import type * as core from 'express-serve-static-core'

describe('@types/express meanings', () => {
  test('PathParams is the path argument union; the inferring helper is PathArgumentParams', () => {
    expectTypeOf<PathParams>().toEqualTypeOf<string | RegExp | Array<string | RegExp>>()
    expectTypeOf<PathArgumentParams<'/a/:id'>>().toEqualTypeOf<{ id: string }>()
    expectTypeOf<PathArgumentParams<RegExp>>().toEqualTypeOf<ParamsDictionary>()
  })
  test('ParamsFlatDictionary holds strings only; WildcardParamsDictionary may hold arrays', () => {
    expectTypeOf<ParamsFlatDictionary[string]>().toEqualTypeOf<string>()
    expectTypeOf<ParamsFlatDictionary[number]>().toEqualTypeOf<string>()
    expectTypeOf<WildcardParamsDictionary[string]>().toEqualTypeOf<string | string[]>()
    expectTypeOf<Params>().toEqualTypeOf<ParamsDictionary | ParamsFlatDictionary>()
    expectTypeOf<Dictionary<number>[string]>().toEqualTypeOf<number>()
  })
  test('IRouterHandler<T, Route> types a route method from the route path', () => {
    const route = fw().route('/orders/:orderId')
    const get: IRouterHandler<typeof route, '/orders/:orderId'> = route.get
    get((req) => expectTypeOf(req.params).toEqualTypeOf<{ orderId: string }>())
    const use: IRouterUseHandler<IRoute> = null as unknown as IRouterUseHandler<IRoute>
    expectTypeOf(use).toBeFunction()
  })
  test('Query, ByteRange, RequestRanges, Handler', () => {
    expectTypeOf<Query>().toEqualTypeOf<ParsedQs>()
    expectTypeOf<ByteRange>().toMatchTypeOf<{ start: number; end: number }>()
    expectTypeOf<RequestRanges[number]>().toMatchTypeOf<ByteRange>()
    expectTypeOf<RequestRanges['type']>().toEqualTypeOf<string>()
    expectTypeOf<Handler>().toMatchTypeOf<RequestHandler>()
  })
  test('Errback may be called without an error', () => {
    expectTypeOf<Parameters<Errback>>().toEqualTypeOf<[err?: Error]>()
  })
})

describe('request and response', () => {
  test('computed request properties are read-only', () => {
    const req = null as unknown as Request
    // @ts-expect-error read-only
    req.ip = 'x'
    // @ts-expect-error read-only
    req.hostname = 'x'
    req.url = '/ok'
  })
  test('static setHeaders receives the full response', () => {
    fw.static('public', {
      setHeaders(res, path, stat) {
        expectTypeOf(res).toEqualTypeOf<Response>()
        expectTypeOf(path).toBeString()
        expectTypeOf(stat).toEqualTypeOf<Stats>()
        res.set('X-A', '1')
      }
    })
  })
  test('app.param takes a name or a list of names; router.param a name', () => {
    fw().param(['a', 'b'], (_req, _res, next) => next())
    fw.Router().param('a', (_req, _res, next) => next())
    // @ts-expect-error router.param throws for a list at run time (as in Express 5)
    fw.Router().param(['a', 'b'], (_req, _res, next) => next())
  })
})

describe("the 'express-serve-static-core' module", () => {
  test('is switchyard: its Request, Response and Application are the ones switchyard extends', () => {
    expectTypeOf<Request>().toMatchTypeOf<core.Request>()
    expectTypeOf<core.Request>().toMatchTypeOf<Request>()
    expectTypeOf<core.Response['status']>().toBeFunction()
    expectTypeOf(fw()).toMatchTypeOf<core.Express>()
    expectTypeOf<core.ParamsDictionary>().toEqualTypeOf<ParamsDictionary>()
  })
})

describe('Router.Route', () => {
  test('is the route class', () => {
    expectTypeOf(new fw.Router.Route('/a/:id')).toEqualTypeOf<IRoute<'/a/:id'>>()
  })
})

// Router types: routing methods with route-parameter inference.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ParamsDictionary, PathArgument, RouteParameters } from './path-params'
import type { DefaultBody } from './global'
import type { ParsedQs } from './request'
import type { NextFunction, RequestHandler, RequestHandlerParams, RequestParamHandler } from './handlers'
import type { Application } from './application'

/** Options of `fw.Router(options)`. */
export interface RouterOptions {
  /** '/Foo' and '/foo' differ. Default false. */
  caseSensitive?: boolean | undefined
  /** Keep the parent's `req.params` (the child's value wins on conflicts). Default false. */
  mergeParams?: boolean | undefined
  /** '/foo' and '/foo/' differ. Default false. */
  strict?: boolean | undefined
}

/** The params type of a route: inferred from a literal path, a dictionary in a `mergeParams` router. */
export type RouteParams<Path extends string, Merge extends boolean> = Merge extends true
  ? ParamsDictionary
  : RouteParameters<Path>

/**
 * A routing method (`get`, `post`, `all`, ...): `(path, ...handlers)`. For a literal
 * path `req.params` is inferred; otherwise it is `ParamsDictionary` (or the given `P`).
 */
export interface IRouterMatcher<T, Method extends string = any, Merge extends boolean = false> {
  <
    Path extends string,
    P = RouteParams<Path, Merge>,
    ResBody = any,
    ReqBody = DefaultBody,
    ReqQuery = ParsedQs,
    LocalsObj extends Record<string, any> = Record<string, any>
  >(
    path: Path,
    ...handlers: Array<RequestHandler<P, ResBody, ReqBody, ReqQuery, LocalsObj>>
  ): T
  <
    Path extends string,
    P = RouteParams<Path, Merge>,
    ResBody = any,
    ReqBody = DefaultBody,
    ReqQuery = ParsedQs,
    LocalsObj extends Record<string, any> = Record<string, any>
  >(
    path: Path,
    ...handlers: Array<RequestHandlerParams<P, ResBody, ReqBody, ReqQuery, LocalsObj>>
  ): T
  <P = ParamsDictionary, ResBody = any, ReqBody = DefaultBody, ReqQuery = ParsedQs, LocalsObj extends Record<string, any> = Record<string, any>>(
    path: PathArgument,
    ...handlers: Array<RequestHandler<P, ResBody, ReqBody, ReqQuery, LocalsObj>>
  ): T
  <P = ParamsDictionary, ResBody = any, ReqBody = DefaultBody, ReqQuery = ParsedQs, LocalsObj extends Record<string, any> = Record<string, any>>(
    path: PathArgument,
    ...handlers: Array<RequestHandlerParams<P, ResBody, ReqBody, ReqQuery, LocalsObj>>
  ): T
  /** Mount a sub-application at a path. */
  (path: PathArgument, subApplication: Application): T
}

/** `use(...handlers)` without a path. */
export interface IRouterUseHandler<T> {
  <P = ParamsDictionary, ResBody = any, ReqBody = DefaultBody, ReqQuery = ParsedQs, LocalsObj extends Record<string, any> = Record<string, any>>(
    ...handlers: Array<RequestHandler<P, ResBody, ReqBody, ReqQuery, LocalsObj>>
  ): T
  <P = ParamsDictionary, ResBody = any, ReqBody = DefaultBody, ReqQuery = ParsedQs, LocalsObj extends Record<string, any> = Record<string, any>>(
    ...handlers: Array<RequestHandlerParams<P, ResBody, ReqBody, ReqQuery, LocalsObj>>
  ): T
}

/** `route.get(...handlers)` etc.: the params type comes from the route's path. */
export interface IRouteHandler<T, Path extends string = string, Merge extends boolean = false> {
  <P = RouteParams<Path, Merge>, ResBody = any, ReqBody = DefaultBody, ReqQuery = ParsedQs, LocalsObj extends Record<string, any> = Record<string, any>>(
    ...handlers: Array<RequestHandler<P, ResBody, ReqBody, ReqQuery, LocalsObj>>
  ): T
  <P = RouteParams<Path, Merge>, ResBody = any, ReqBody = DefaultBody, ReqQuery = ParsedQs, LocalsObj extends Record<string, any> = Record<string, any>>(
    ...handlers: Array<RequestHandlerParams<P, ResBody, ReqBody, ReqQuery, LocalsObj>>
  ): T
}

/**
 * The handler list of a route method (`app.route(path).get(...handlers)`), as
 * `@types/express` names it: `Route` is the route's path, its parameters type `req.params`.
 */
export interface IRouterHandler<T, Route extends string | RegExp = string>
  extends IRouteHandler<T, Route extends string ? Route : string> {}

/**
 * `app.use`'s type, as `@types/express` names it: handlers with or without a path.
 */
export type ApplicationRequestHandler<T> = IRouterUseHandler<T> &
  IRouterMatcher<T> &
  ((...handlers: RequestHandlerParams[]) => T)

/** One entry of a router's or route's stack. */
export interface ILayer {
  /** The handler's name. */
  name: string
  /** The handler. */
  handle: (...args: any[]) => unknown
  /** The route, for a layer created by `router.route(path)`. */
  route?: IRoute | undefined
  /** The HTTP method, for a layer inside a route. */
  method?: string | undefined
  [key: string]: unknown
}

/** The routing methods of routers, applications and routes: `all` and the lower-case HTTP methods. */
export type RouterMethod =
  | 'all' | 'acl' | 'bind' | 'checkout' | 'connect' | 'copy' | 'delete' | 'get' | 'head' | 'link' | 'lock'
  | 'm-search' | 'merge' | 'mkactivity' | 'mkcalendar' | 'mkcol' | 'move' | 'notify' | 'options' | 'patch'
  | 'post' | 'propfind' | 'proppatch' | 'purge' | 'put' | 'query' | 'rebind' | 'report' | 'search' | 'source'
  | 'subscribe' | 'trace' | 'unbind' | 'unlink' | 'unlock' | 'unsubscribe'

/**
 * A route: `router.route(path)` / `app.route(path)`, chaining one handler list per method.
 *
 * @example
 * app.route('/books/:id').get((req, res) => { res.send(req.params.id) }).put(update)
 */
export interface IRoute<Path extends string = string, Merge extends boolean = false> {
  /** The route's path. */
  path: string
  /** The route's layers (one per handler). */
  stack: ILayer[]
  /** The methods with a handler, lower case (`_all` for `.all()`), as tools that list routes read them. */
  methods: Record<string, boolean>
  all: IRouteHandler<this, Path, Merge>
  acl: IRouteHandler<this, Path, Merge>
  bind: IRouteHandler<this, Path, Merge>
  checkout: IRouteHandler<this, Path, Merge>
  connect: IRouteHandler<this, Path, Merge>
  copy: IRouteHandler<this, Path, Merge>
  delete: IRouteHandler<this, Path, Merge>
  get: IRouteHandler<this, Path, Merge>
  head: IRouteHandler<this, Path, Merge>
  link: IRouteHandler<this, Path, Merge>
  lock: IRouteHandler<this, Path, Merge>
  'm-search': IRouteHandler<this, Path, Merge>
  merge: IRouteHandler<this, Path, Merge>
  mkactivity: IRouteHandler<this, Path, Merge>
  mkcalendar: IRouteHandler<this, Path, Merge>
  mkcol: IRouteHandler<this, Path, Merge>
  move: IRouteHandler<this, Path, Merge>
  notify: IRouteHandler<this, Path, Merge>
  options: IRouteHandler<this, Path, Merge>
  patch: IRouteHandler<this, Path, Merge>
  post: IRouteHandler<this, Path, Merge>
  propfind: IRouteHandler<this, Path, Merge>
  proppatch: IRouteHandler<this, Path, Merge>
  purge: IRouteHandler<this, Path, Merge>
  put: IRouteHandler<this, Path, Merge>
  query: IRouteHandler<this, Path, Merge>
  rebind: IRouteHandler<this, Path, Merge>
  report: IRouteHandler<this, Path, Merge>
  search: IRouteHandler<this, Path, Merge>
  source: IRouteHandler<this, Path, Merge>
  subscribe: IRouteHandler<this, Path, Merge>
  trace: IRouteHandler<this, Path, Merge>
  unbind: IRouteHandler<this, Path, Merge>
  unlink: IRouteHandler<this, Path, Merge>
  unlock: IRouteHandler<this, Path, Merge>
  unsubscribe: IRouteHandler<this, Path, Merge>
}

/** The routing interface of routers and applications. */
export interface IRouter<Merge extends boolean = false> {
  /** A router is itself a middleware. */
  (req: IncomingMessage, res: ServerResponse, next: NextFunction): void
  /** Register a callback run when a route parameter named `name` is matched. */
  param(name: string, handler: RequestParamHandler): this
  /** Mount middleware, routers or applications, optionally at a path. */
  use: IRouterUseHandler<this> & IRouterMatcher<this, 'use', Merge>
  /** Create a route at `path`; its handlers see the path's parameters. */
  route<Path extends string>(prefix: Path): IRoute<Path, Merge>
  route(prefix: PathArgument): IRoute<string, Merge>
  /** The router's layers. */
  stack: ILayer[]
  all: IRouterMatcher<this, 'all', Merge>
  acl: IRouterMatcher<this, 'acl', Merge>
  bind: IRouterMatcher<this, 'bind', Merge>
  checkout: IRouterMatcher<this, 'checkout', Merge>
  connect: IRouterMatcher<this, 'connect', Merge>
  copy: IRouterMatcher<this, 'copy', Merge>
  delete: IRouterMatcher<this, 'delete', Merge>
  get: IRouterMatcher<this, 'get', Merge>
  head: IRouterMatcher<this, 'head', Merge>
  link: IRouterMatcher<this, 'link', Merge>
  lock: IRouterMatcher<this, 'lock', Merge>
  'm-search': IRouterMatcher<this, 'm-search', Merge>
  merge: IRouterMatcher<this, 'merge', Merge>
  mkactivity: IRouterMatcher<this, 'mkactivity', Merge>
  mkcalendar: IRouterMatcher<this, 'mkcalendar', Merge>
  mkcol: IRouterMatcher<this, 'mkcol', Merge>
  move: IRouterMatcher<this, 'move', Merge>
  notify: IRouterMatcher<this, 'notify', Merge>
  options: IRouterMatcher<this, 'options', Merge>
  patch: IRouterMatcher<this, 'patch', Merge>
  post: IRouterMatcher<this, 'post', Merge>
  propfind: IRouterMatcher<this, 'propfind', Merge>
  proppatch: IRouterMatcher<this, 'proppatch', Merge>
  purge: IRouterMatcher<this, 'purge', Merge>
  put: IRouterMatcher<this, 'put', Merge>
  query: IRouterMatcher<this, 'query', Merge>
  rebind: IRouterMatcher<this, 'rebind', Merge>
  report: IRouterMatcher<this, 'report', Merge>
  search: IRouterMatcher<this, 'search', Merge>
  source: IRouterMatcher<this, 'source', Merge>
  subscribe: IRouterMatcher<this, 'subscribe', Merge>
  trace: IRouterMatcher<this, 'trace', Merge>
  unbind: IRouterMatcher<this, 'unbind', Merge>
  unlink: IRouterMatcher<this, 'unlink', Merge>
  unlock: IRouterMatcher<this, 'unlock', Merge>
  unsubscribe: IRouterMatcher<this, 'unsubscribe', Merge>
}

/**
 * A router: a middleware with its own routing methods (`fw.Router()`).
 * A router made with `mergeParams: true` is a `Router<true>`: its `req.params` stay a dictionary.
 */
export interface Router<Merge extends boolean = false> extends IRouter<Merge> {
  /**
   * The routes and mounted routers registered on this router (router@2.3):
   * one `{ path, methods, router }` per registered path, in stack order.
   *
   * @example
   * app.router.listRoutes() // [{ path: '/users', methods: ['GET', 'HEAD'], router: undefined }]
   */
  listRoutes(): RouteListing[]
}

/** One entry of `router.listRoutes()`. */
export interface RouteListing {
  /** The registered path (each path of an array gets an entry). */
  path: string | RegExp
  /** A route's methods, upper case, in the order first registered: `'*'` for `.all()`, HEAD added after GET. Undefined for a mounted router. */
  methods: string[] | undefined
  /** The router mounted by `.use(path, router)`, to recurse into. */
  router: Router<boolean> | undefined
}

/** `fw.Router`: callable with or without `new`. */
export interface RouterConstructor {
  (options: RouterOptions & { mergeParams: true }): Router<true>
  (options?: RouterOptions): Router
  new (options: RouterOptions & { mergeParams: true }): Router<true>
  new (options?: RouterOptions): Router
  /** The route class, as router@2 exposes it (`req.route instanceof Router.Route`). */
  Route: RouteConstructor
}

/** `fw.Route`: the route class (`new Route(path)`). */
export interface RouteConstructor {
  new <Path extends string = string>(path: Path): IRoute<Path>
  prototype: IRoute
}

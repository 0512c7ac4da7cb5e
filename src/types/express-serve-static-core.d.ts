// The `express-serve-static-core` module, as switchyard provides it.
//
// Express projects augment `Request`, `Response`, `Application` and `Locals` with
//   declare module 'express-serve-static-core' { interface Request { user?: User } }
// This ambient declaration gives those blocks a module to attach to when
// `@types/express` is not installed, and switchyard's public `Request`, `Response`,
// `Application` and `Express` extend the interfaces declared here, so the added
// members reach switchyard's types.
//
// When `@types/express` IS installed side by side, TypeScript resolves the module
// name to this ambient declaration first (ambient modules win over files found on
// disk), so `@types/express` and every package typed against it (multer, passport,
// express-session, ...) are then built on switchyard's types: one `Request` type in
// the whole program, and middleware typed for Express is accepted by switchyard.
//
// This file must stay a script (no top-level import or export).

declare module 'express-serve-static-core' {
  type DefaultBody = import('./global.js').DefaultBody
  type ParsedQs = import('./request.js').ParsedQs
  type RecordOf = Record<string, any>

  type RequestBase<P, ResBody, ReqBody, ReqQuery, LocalsObj extends RecordOf> = import('./request.js').RequestBase<
    P,
    ResBody,
    ReqBody,
    ReqQuery,
    LocalsObj
  >
  type ResponseBase<ResBody, LocalsObj extends RecordOf, StatusCode extends number> = import('./response.js').ResponseBase<
    ResBody,
    LocalsObj,
    StatusCode
  >
  type ApplicationBase<LocalsObj extends RecordOf> = import('./application.js').ApplicationBase<LocalsObj>
  type SwitchyardApplication = import('./application.js').Application
  type SwitchyardRequest = import('./request.js').Request
  type SwitchyardResponse = import('./response.js').Response

  /** The request: augment it to add properties to every `req`. */
  export interface Request<
    P = ParamsDictionary,
    ResBody = any,
    ReqBody = DefaultBody,
    ReqQuery = ParsedQs,
    LocalsObj extends Record<string, any> = Record<string, any>
  > extends RequestBase<P, ResBody, ReqBody, ReqQuery, LocalsObj> {}

  /** The response: augment it to add properties to every `res`. */
  export interface Response<
    ResBody = any,
    LocalsObj extends Record<string, any> = Record<string, any>,
    StatusCode extends number = number
  > extends ResponseBase<ResBody, LocalsObj, StatusCode> {}

  /** The application: augment it to add properties to every app. */
  export interface Application<LocalsObj extends Record<string, any> = Record<string, any>>
    extends ApplicationBase<LocalsObj> {}

  /** What `fw()` returns. */
  export interface Express extends SwitchyardApplication {
    request: SwitchyardRequest
    response: SwitchyardResponse
  }

  /** `res.locals` and `app.locals` everywhere: augment it (or `Express.Locals`). */
  export interface Locals extends Express.Locals {}

  export type Query = import('./request.js').Query
  export type ByteRange = import('./request.js').ByteRange
  export type RequestRanges = import('./request.js').RequestRanges
  export type MediaType = import('./request.js').MediaType
  export type Dictionary<T> = import('./path-params.js').Dictionary<T>
  export type ParamsDictionary = import('./path-params.js').ParamsDictionary
  export type ParamsFlatDictionary = import('./path-params.js').ParamsFlatDictionary
  export type Params = import('./path-params.js').Params
  export type PathParams = import('./path-params.js').PathParams
  export type RouteParameters<Route extends string | RegExp> = Route extends string
    ? import('./path-params.js').RouteParameters<Route>
    : ParamsDictionary
  export type NextFunction = import('./handlers.js').NextFunction
  export type Handler = import('./handlers.js').Handler
  export type RequestHandler<
    P = ParamsDictionary,
    ResBody = any,
    ReqBody = DefaultBody,
    ReqQuery = ParsedQs,
    LocalsObj extends Record<string, any> = Record<string, any>
  > = import('./handlers.js').RequestHandler<P, ResBody, ReqBody, ReqQuery, LocalsObj>
  export type ErrorRequestHandler<
    P = ParamsDictionary,
    ResBody = any,
    ReqBody = DefaultBody,
    ReqQuery = ParsedQs,
    LocalsObj extends Record<string, any> = Record<string, any>
  > = import('./handlers.js').ErrorRequestHandler<P, ResBody, ReqBody, ReqQuery, LocalsObj>
  export type RequestHandlerParams<
    P = ParamsDictionary,
    ResBody = any,
    ReqBody = DefaultBody,
    ReqQuery = ParsedQs,
    LocalsObj extends Record<string, any> = Record<string, any>
  > = import('./handlers.js').RequestHandlerParams<P, ResBody, ReqBody, ReqQuery, LocalsObj>
  export type RequestParamHandler = import('./handlers.js').RequestParamHandler
  export type IRouterMatcher<T, Method extends string = any> = import('./router.js').IRouterMatcher<T, Method>
  export type IRouterHandler<T, Route extends string | RegExp = string> = import('./router.js').IRouterHandler<T, Route>
  export type ApplicationRequestHandler<T> = import('./router.js').ApplicationRequestHandler<T>
  export type IRouter = import('./router.js').IRouter
  export type IRoute<Route extends string | RegExp = string> = import('./router.js').IRoute<
    Route extends string ? Route : string
  >
  export type ILayer = import('./router.js').ILayer
  export type Router = import('./router.js').Router
  export type CookieOptions = import('./response.js').CookieOptions
  export type Send<ResBody = any, T = import('./response.js').Response<ResBody>> = import('./response.js').Send<ResBody, T>
  export type Errback = import('./errors.js').Errback
  export type SendFileOptions = import('./static.js').SendFileOptions
  export type DownloadOptions = import('./static.js').DownloadOptions

  export {}
}

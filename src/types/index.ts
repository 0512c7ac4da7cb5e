// The public types of switchyard, re-exported by `src/index.ts` (and, in the
// built package, by the generated `dist/index.d.cts` / `dist/index.d.mts`).
/// <reference path="./express-serve-static-core.d.ts" />
import './global'

export type { DefaultBody } from './global'
export type {
  Dictionary,
  Params,
  ParamsDictionary,
  ParamsFlatDictionary,
  PathArgument,
  PathArgumentParams,
  PathParams,
  RouteParameters,
  WildcardParamsDictionary
} from './path-params'
export type {
  ByteRange,
  MediaType,
  ParsedQs,
  Query,
  Range,
  RangeOptions,
  Ranges,
  Request,
  RequestRanges,
  StrictRequest
} from './request'
export type { CookieOptions, FormatHandlers, HeaderValue, Response, Send } from './response'
export type {
  Engine,
  ErrorRequestHandler,
  Handler,
  NextFunction,
  RequestHandler,
  RequestHandlerParams,
  RequestParamHandler
} from './handlers'
export type { Locals } from 'express-serve-static-core'
export type {
  ApplicationRequestHandler,
  ILayer,
  IRoute,
  IRouteHandler,
  IRouter,
  IRouterHandler,
  IRouterMatcher,
  IRouterUseHandler,
  RouteConstructor,
  RouteListing,
  RouteParams,
  Router,
  RouterConstructor,
  RouterMethod,
  RouterOptions
} from './router'
export type { Application, Express, RenderCallback, Switchyard } from './application'
export type {
  BodyParser,
  BodyParserMiddleware,
  Options,
  OptionsJson,
  OptionsRaw,
  OptionsText,
  OptionsUrlencoded,
  VerifyFunction
} from './body'
export type { DownloadOptions, SendFileOptions, ServeStaticMiddleware, ServeStaticOptions } from './static'
export type { BodyParserError, BodyParserErrorType, Errback, HttpError } from './errors'

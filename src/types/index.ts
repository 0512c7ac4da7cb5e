// The public types of switchyard, re-exported by `src/index.ts` (and, in the
// built package, by the generated `dist/index.d.cts` / `dist/index.d.mts`).
import './global'

export type { DefaultBody } from './global'
export type { ParamsDictionary, ParamsFlatDictionary, RouteParameters, PathParams, PathArgument } from './path-params'
export type { ParsedQs, Range, Ranges, RangeOptions, Request, StrictRequest } from './request'
export type { CookieOptions, FormatHandlers, HeaderValue, Response, Send } from './response'
export type {
  Engine,
  ErrorRequestHandler,
  NextFunction,
  RequestHandler,
  RequestHandlerParams,
  RequestParamHandler
} from './handlers'
export type {
  ILayer,
  IRoute,
  IRouteHandler,
  IRouter,
  IRouterHandler,
  IRouterMatcher,
  RouteConstructor,
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

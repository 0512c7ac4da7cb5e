// Every name @types/express and express-serve-static-core export is importable from switchyard.
import type {
  Application,
  CookieOptions,
  Errback,
  ErrorRequestHandler,
  Express,
  Handler,
  IRoute,
  IRouter,
  IRouterHandler,
  IRouterMatcher,
  Locals,
  MediaType,
  NextFunction,
  Request,
  RequestHandler,
  RequestParamHandler,
  Response,
  Router,
  RouterOptions,
  Send
} from 'switchyardjs'
import type { ByteRange, Dictionary, Params, ParamsFlatDictionary, PathParams, Query, RequestRanges } from 'switchyardjs' // @types/express differs: these live in express-serve-static-core only
import type { ApplicationRequestHandler, ParamsDictionary } from 'switchyardjs' // @types/express differs: these live in express-serve-static-core only

type Everything = [
  Application, CookieOptions, Errback, ErrorRequestHandler, Express, Handler, IRoute, IRouter,
  IRouterHandler<IRoute>, IRouterMatcher<IRouter>, Locals, MediaType, NextFunction, Request,
  RequestHandler, RequestParamHandler, Response, Router, RouterOptions, Send,
  ByteRange, Dictionary<string>, Params, ParamsFlatDictionary, PathParams, Query, RequestRanges,
  ApplicationRequestHandler<Express>, ParamsDictionary
]
export type { Everything }

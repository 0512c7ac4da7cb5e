// Handler types: what `app.use`, `app.get` and friends accept.
import type { ParamsDictionary } from './path-params'
import type { DefaultBody } from './global'
import type { ParsedQs, Request } from './request'
import type { Response } from './response'

/**
 * The `next` continuation: `next()` goes on, `next(err)` skips to error handlers,
 * `next('route')` skips the rest of the route, `next('router')` leaves the router.
 */
export interface NextFunction {
  (err?: any): void
  /** Skip the remaining handlers of the current route. */
  (deferToNext: 'route'): void
  /** Leave the current router. */
  (deferToNext: 'router'): void
}

/**
 * A middleware or route handler. It may return a promise: a rejection calls `next(err)`.
 *
 * @example
 * const auth: RequestHandler = (req, res, next) => { if (req.get('x-key')) next(); else res.sendStatus(401) }
 */
export interface RequestHandler<
  P = ParamsDictionary,
  ResBody = any,
  ReqBody = DefaultBody,
  ReqQuery = ParsedQs,
  LocalsObj extends Record<string, any> = Record<string, any>
> {
  (req: Request<P, ResBody, ReqBody, ReqQuery, LocalsObj>, res: Response<ResBody, LocalsObj>, next: NextFunction): unknown
}

/**
 * An error-handling middleware: exactly four parameters `(err, req, res, next)`.
 *
 * @example
 * const onError: ErrorRequestHandler = (err, req, res, next) => { res.status(500).send(err.message) }
 */
export interface ErrorRequestHandler<
  P = ParamsDictionary,
  ResBody = any,
  ReqBody = DefaultBody,
  ReqQuery = ParsedQs,
  LocalsObj extends Record<string, any> = Record<string, any>
> {
  (err: any, req: Request<P, ResBody, ReqBody, ReqQuery, LocalsObj>, res: Response<ResBody, LocalsObj>, next: NextFunction): unknown
}

/** A middleware or route handler with the default type arguments (`@types/express`'s `Handler`). */
export interface Handler extends RequestHandler {}

/** Anything a routing method accepts as a handler: a handler, an error handler, or a (nested) array of them. */
export type RequestHandlerParams<
  P = ParamsDictionary,
  ResBody = any,
  ReqBody = DefaultBody,
  ReqQuery = ParsedQs,
  LocalsObj extends Record<string, any> = Record<string, any>
> =
  | RequestHandler<P, ResBody, ReqBody, ReqQuery, LocalsObj>
  | ErrorRequestHandler<P, ResBody, ReqBody, ReqQuery, LocalsObj>
  | ReadonlyArray<RequestHandler<P> | ErrorRequestHandler<P> | ReadonlyArray<RequestHandler<P> | ErrorRequestHandler<P>>>

/** `app.param(name, fn)` / `router.param(name, fn)` callback; `value` is the decoded parameter. */
export interface RequestParamHandler {
  (req: Request, res: Response, next: NextFunction, value: any, name: string): unknown
}

/** A template engine as registered with `app.engine(ext, fn)` (the `__express` signature). */
export type Engine = (path: string, options: object, callback: (e: any, rendered?: string) => void) => void

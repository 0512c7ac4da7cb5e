// The response type: `http.ServerResponse` plus everything switchyard adds.
import type { ServerResponse } from 'node:http'
import type { Application } from './application'
import type { Request } from './request'
import type { Errback } from './errors'
import type { NextFunction } from './handlers'
import type { DownloadOptions, SendFileOptions } from './static'
import type { Locals, Response as CoreResponse } from 'express-serve-static-core'

/** Options of `res.cookie(name, value, options)` and `res.clearCookie(name, options)`. */
export interface CookieOptions {
  /** Lifetime in milliseconds: sets `Max-Age` and `Expires` (ignored by `clearCookie`). */
  maxAge?: number | undefined
  /** Sign the value with `req.secret` (set by cookie-parser). */
  signed?: boolean | undefined
  /** Expiry date; omitted means a session cookie. */
  expires?: Date | undefined
  /** Hide the cookie from client scripts. */
  httpOnly?: boolean | undefined
  /** Cookie path. Default '/'. */
  path?: string | undefined
  /** Cookie domain. */
  domain?: string | undefined
  /** Send only over HTTPS. */
  secure?: boolean | undefined
  /** Value encoder. Default `encodeURIComponent`. */
  encode?: ((val: string) => string) | undefined
  /** The `SameSite` attribute. */
  sameSite?: boolean | 'lax' | 'strict' | 'none' | undefined
  /** The `Priority` attribute. */
  priority?: 'low' | 'medium' | 'high' | undefined
  /** The `Partitioned` attribute (CHIPS). */
  partitioned?: boolean | undefined
}

/** `res.send`, `res.json` and `res.jsonp`: send a body typed by `ResBody`. */
export type Send<ResBody = any, T = Response<ResBody>> = (body?: ResBody) => T

/** A header value `res.set` accepts (numbers and arrays are converted to strings). */
export type HeaderValue = string | number | boolean | readonly (string | number)[]

/** Handlers of `res.format`, by media type or extension; `default` runs when nothing matches. */
export interface FormatHandlers {
  [type: string]: (req: Request, res: Response, next: NextFunction) => unknown
}

/**
 * Everything a response carries. The public {@link Response} extends it through the
 * `express-serve-static-core` module, so augmentations of that module's `Response`
 * reach switchyard's. Not exported from the package.
 */
export interface ResponseBase<
  ResBody = any,
  LocalsObj extends Record<string, any> = Record<string, any>,
  StatusCode extends number = number
> extends ServerResponse<Request>,
    Express.Response {
  /** Set the status code (an integer from 100 to 999). */
  status(code: StatusCode): this
  /** Set the status code and send its standard message as the body. */
  sendStatus(code: StatusCode): this
  /** Append links to the `Link` header: `{ next: url, last: url }`. */
  links(links: Record<string, string | string[]> | object): this
  /** Send a body: a string (HTML), a Buffer (octet-stream), or an object/array (JSON). */
  send: Send<ResBody, this>
  /** Send a JSON body (honours `json replacer`, `json spaces`, `json escape`). */
  json: Send<ResBody, this>
  /** Send JSON wrapped in the callback named by the `jsonp callback name` query parameter. */
  jsonp: Send<ResBody, this>
  /** Transfer a file (absolute path, or relative with `root`); `fn` receives errors. */
  sendFile(path: string, fn?: Errback): void
  sendFile(path: string, options: SendFileOptions, fn?: Errback): void
  /** Transfer a file as an attachment. */
  download(path: string, fn?: Errback): void
  download(path: string, filename: string, fn?: Errback): void
  download(path: string, filename: string, options: DownloadOptions, fn?: Errback): void
  /** Set `Content-Type` from a MIME type or an extension. */
  contentType(type: string): this
  /** Alias of `res.contentType`. */
  type(type: string): this
  /** Respond by the best type for the `Accept` header; 406 when nothing matches and no `default`. */
  format(obj: FormatHandlers | object): this
  /** Set `Content-Disposition: attachment` (and the type from `filename`). */
  attachment(filename?: string): this
  /** Set one header, or several from an object. */
  set(field: object | string): this
  set(field: string, value?: HeaderValue): this
  /** Alias of `res.set`. */
  header(field: object | string): this
  header(field: string, value?: HeaderValue): this
  /** A response header set so far. */
  get(field: string): string | undefined
  /** Clear a cookie (same `path`/`domain` as when set). */
  clearCookie(name: string, options?: CookieOptions): this
  /** Set a cookie; an object value is serialised as `j:` + JSON. */
  cookie(name: string, val: string, options: CookieOptions): this
  cookie(name: string, val: any, options: CookieOptions): this
  cookie(name: string, val: any): this
  /** Set the `Location` header. */
  location(url: string): this
  /** Redirect (302 by default). */
  redirect(url: string): void
  redirect(status: number, url: string): void
  /** Render a view and send it; with a callback, the HTML is passed instead. */
  render(view: string, callback?: (err: Error, html: string) => void): void
  render(view: string, options?: object, callback?: (err: Error, html: string) => void): void
  /** Variables local to this request, visible to views. */
  locals: LocalsObj & Locals
  /** Charset used by `res.send` for strings. */
  charset: string
  /** Add a field to the `Vary` header. */
  vary(field: string): this
  /** The application handling the request. */
  app: Application
  /** Append a value to a header. */
  append(field: string, value?: string[] | string): this
  /** The request of this response. */
  req: Request
}

/**
 * The response object handlers receive. `ResBody` types `res.send`/`res.json`,
 * `LocalsObj` types `res.locals`.
 *
 * @example
 * app.get('/me', (req, res: Response<{ name: string }>) => { res.json({ name: 'Ada' }) })
 */
export interface Response<
  ResBody = any,
  LocalsObj extends Record<string, any> = Record<string, any>,
  StatusCode extends number = number
> extends CoreResponse<ResBody, LocalsObj, StatusCode> {}

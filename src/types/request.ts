// The request type: `http.IncomingMessage` plus everything switchyard adds.
import type { IncomingMessage } from 'node:http'
import type { ParamsDictionary } from './path-params'
import type { DefaultBody } from './global'
import type { Application } from './application'
import type { Response } from './response'
import type { NextFunction } from './handlers'
import type { IRoute } from './router'
import type { Request as CoreRequest } from 'express-serve-static-core'

/** A parsed query string (`req.query`), as the 'simple' or 'extended' parser produces it. */
export interface ParsedQs {
  [key: string]: undefined | string | ParsedQs | (string | ParsedQs)[]
}

/** One byte range of `req.range()`: first and last byte, both inclusive. */
export interface Range {
  start: number
  end: number
}

/** Same as {@link Range}, under the name `@types/express` uses. */
export interface ByteRange extends Range {}

/** The result of `req.range(size)`: the ranges and their unit. */
export type Ranges = Range[] & { type: string }

/** Same as {@link Ranges}, under the name `@types/express` uses. */
export interface RequestRanges extends Array<Range> {
  /** The range unit, normally 'bytes'. */
  type: string
}

/** The parsed query string type, under the name `@types/express` uses. */
export type Query = ParsedQs

/** A media type from an `Accept`-style header, with its quality. */
export interface MediaType {
  /** The full value, e.g. 'text/html'. */
  value: string
  /** The `q` weight, 0 to 1. */
  quality: number
  /** The type part, e.g. 'text'. */
  type: string
  /** The subtype part, e.g. 'html'. */
  subtype: string
}

/** Options of `req.range(size, options)`. */
export interface RangeOptions {
  /** Merge overlapping and adjacent ranges. Default false. */
  combine?: boolean | undefined
}

/**
 * Everything a request carries. The public {@link Request} extends it through the
 * `express-serve-static-core` module (see `./express-serve-static-core.d.ts`), so
 * augmentations of that module's `Request` reach switchyard's. Not exported from the package.
 */
export interface RequestBase<
  P = ParamsDictionary,
  ResBody = any,
  ReqBody = DefaultBody,
  ReqQuery = ParsedQs,
  LocalsObj extends Record<string, any> = Record<string, any>
> extends IncomingMessage,
    Express.Request {
  /** A request header (case-insensitive); `Referer` and `Referrer` are interchangeable. */
  get(name: 'set-cookie'): string[] | undefined
  get(name: string): string | undefined
  /** Alias of `req.get`. */
  header(name: 'set-cookie'): string[] | undefined
  header(name: string): string | undefined

  /** The best of the given types for the `Accept` header, or false; without arguments, the accepted types. */
  accepts(): string[]
  accepts(type: string): string | false
  accepts(type: string[]): string | false
  accepts(...type: string[]): string | false
  /** The best of the given charsets for `Accept-Charset`, or false. */
  acceptsCharsets(): string[]
  acceptsCharsets(charset: string): string | false
  acceptsCharsets(charset: string[]): string | false
  acceptsCharsets(...charset: string[]): string | false
  /** The best of the given encodings for `Accept-Encoding`, or false. */
  acceptsEncodings(): string[]
  acceptsEncodings(encoding: string): string | false
  acceptsEncodings(encoding: string[]): string | false
  acceptsEncodings(...encoding: string[]): string | false
  /** The best of the given languages for `Accept-Language`, or false. */
  acceptsLanguages(): string[]
  acceptsLanguages(lang: string): string | false
  acceptsLanguages(lang: string[]): string | false
  acceptsLanguages(...lang: string[]): string | false

  /** Parse the `Range` header: ranges, -1 (unsatisfiable), -2 (malformed) or undefined (absent). */
  range(size: number, options?: RangeOptions): Ranges | -1 | -2 | undefined
  /** The matching type when the body's Content-Type is one of `type`, false if not, null without a body. */
  is(type: string | string[]): string | false | null
  is(...type: string[]): string | false | null

  /** 'http' or 'https' (from `X-Forwarded-Proto` when `trust proxy` allows). */
  readonly protocol: string
  /** `req.protocol === 'https'`. */
  readonly secure: boolean
  /** The client address (the left-most trusted `X-Forwarded-For` entry when `trust proxy` allows). */
  readonly ip: string | undefined
  /** The trusted `X-Forwarded-For` addresses, client first. */
  readonly ips: string[]
  /** Subdomains of the host name, most specific first (`subdomain offset` parts removed). */
  readonly subdomains: string[]
  /** The path part of the URL. */
  readonly path: string
  /** The `Host` header (or trusted `X-Forwarded-Host`), with its port. */
  readonly host: string
  /** The host name without the port. */
  readonly hostname: string
  /** True when the client's cache is still fresh (conditional GET/HEAD). */
  readonly fresh: boolean
  /** `!req.fresh`. */
  readonly stale: boolean
  /** True when `X-Requested-With` is 'XMLHttpRequest'. */
  readonly xhr: boolean

  /** The parsed body; `undefined` until a body parser sets it. `any` by default (see `StrictRequest`). */
  body: ReqBody
  /** Cookies, when a cookie parser (such as cookie-parser) is mounted. */
  cookies: any
  /** Signed cookies, when a cookie parser is mounted with a secret. */
  signedCookies: any
  /** The HTTP method. */
  method: string
  /** Route parameters, typed from the route path where it is a literal. */
  params: P
  /** The parsed query string (re-parsed on each read). */
  query: ReqQuery
  /** The matched route. */
  route: IRoute
  /** The URL as received, unaffected by mounting. */
  originalUrl: string
  /** The URL, relative to the mount point inside mounted middleware. */
  url: string
  /** The path the current router or app is mounted on. */
  baseUrl: string
  /** The application handling the request. */
  app: Application
  /** The response of this request. */
  res?: Response<ResBody, LocalsObj>
  /** The current `next`. */
  next?: NextFunction
}

/**
 * The request object handlers receive. Type parameters, as in `@types/express`:
 * route parameters, response body, request body, query and `res.locals`.
 *
 * @example
 * app.post('/users/:id', (req: Request<{ id: string }, unknown, { name: string }>, res) => {
 *   res.send(`${req.params.id}: ${req.body.name}`)
 * })
 */
export interface Request<
  P = ParamsDictionary,
  ResBody = any,
  ReqBody = DefaultBody,
  ReqQuery = ParsedQs,
  LocalsObj extends Record<string, any> = Record<string, any>
> extends CoreRequest<P, ResBody, ReqBody, ReqQuery, LocalsObj> {}

/**
 * A `Request` whose body is `unknown` unless typed: the compiler then forces
 * validation before use.
 *
 * @example
 * app.post('/items', (req: StrictRequest, res) => {
 *   const body = req.body // unknown
 *   if (typeof body === 'object' && body !== null && 'name' in body) res.send(String(body.name))
 * })
 */
export type StrictRequest<
  P = ParamsDictionary,
  ResBody = any,
  ReqBody = unknown,
  ReqQuery = ParsedQs,
  LocalsObj extends Record<string, any> = Record<string, any>
> = Request<P, ResBody, ReqBody, ReqQuery, LocalsObj>

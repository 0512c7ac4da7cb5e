// Option and factory types of the body parsers (`fw.json` etc. and the
// `switchyardjs/body-parser` entry), named as in body-parser's own types.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { NextFunction } from './handlers'

/** `verify(req, res, buf, encoding)`: throw to reject the body with a 403 `entity.verify.failed`. */
export type VerifyFunction = (req: IncomingMessage, res: ServerResponse, buf: Buffer, encoding: string) => void

/** Options shared by every parser. */
export interface Options {
  /** Inflate gzip, deflate and br bodies; false rejects them with 415. Default true. */
  inflate?: boolean | undefined
  /** Maximum body size: bytes, or a string such as '100kb'. Default '100kb'. */
  limit?: number | string | undefined
  /** Media types to parse: an extension, a MIME type (wildcards allowed), a list of them, or a predicate. */
  type?: string | string[] | ((req: IncomingMessage) => any) | undefined
  /**
   * Called with the raw body before parsing; throwing aborts with 403. (A
   * method, as body-parser's types declare it: a function whose `req` is a
   * narrower type, such as the app's Request, is accepted.)
   */
  verify?(req: IncomingMessage, res: ServerResponse, buf: Buffer, encoding: string): void
}

/** Options of `json()`. */
export interface OptionsJson extends Options {
  /** The `reviver` argument of `JSON.parse`. */
  reviver?: ((this: any, key: string, value: any) => any) | undefined
  /** Accept only objects and arrays. Default true. */
  strict?: boolean | undefined
}

/** Options of `raw()` (the shared options). */
export interface OptionsRaw extends Options {}

/** Options of `text()`. */
export interface OptionsText extends Options {
  /** Charset used when the Content-Type has none. Default 'utf-8'. */
  defaultCharset?: string | undefined
}

/** Options of `urlencoded()`. */
export interface OptionsUrlencoded extends Options {
  /** true: nested objects and arrays (rich parser); false: flat key-value pairs. Default false. */
  extended?: boolean | undefined
  /** Maximum number of parameters; more gives 413 `parameters.too.many`. Default 1000. */
  parameterLimit?: number | undefined
  /** Maximum nesting depth when `extended` is true. Default 32. */
  depth?: number | undefined
  /** Charset used when the Content-Type has none. Default 'utf-8'. */
  defaultCharset?: 'utf-8' | 'iso-8859-1' | (string & {}) | undefined
  /** Let a `utf8` sentinel parameter decide the charset. Default false. */
  charsetSentinel?: boolean | undefined
  /** Decode numeric character references in iso-8859-1 forms. Default false. */
  interpretNumericEntities?: boolean | undefined
}

/** The middleware a body parser returns. */
export type BodyParserMiddleware = (req: IncomingMessage, res: ServerResponse, next: NextFunction) => void

/**
 * The `switchyardjs/body-parser` module: the generic `bodyParser()` (which throws:
 * it was split into the four parsers) carrying `json`, `raw`, `text` and `urlencoded`.
 *
 * @example
 * import bodyParser from 'switchyardjs/body-parser'
 * app.use(bodyParser.json({ limit: '1mb' }))
 */
export interface BodyParser {
  /** @deprecated Removed in body-parser 2: calling it throws. Use the individual parsers. */
  (options?: unknown): never
  /** Parse JSON bodies into `req.body`. */
  json(options?: OptionsJson): BodyParserMiddleware
  /** Read bodies into a `Buffer` in `req.body`. */
  raw(options?: OptionsRaw): BodyParserMiddleware
  /** Read bodies into a string in `req.body`. */
  text(options?: OptionsText): BodyParserMiddleware
  /** Parse URL-encoded form bodies into an object in `req.body`. */
  urlencoded(options?: OptionsUrlencoded): BodyParserMiddleware
}

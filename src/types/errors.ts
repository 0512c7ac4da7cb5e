// Error types: the http-errors objects the body parsers pass to `next(err)`.

/** An http-errors style error: an `Error` with an HTTP status and an `expose` flag. */
export interface HttpError<N extends number = number> extends Error {
  /** Suggested HTTP status code (400-599). */
  status: N
  /** Same as `status`. */
  statusCode: N
  /** Whether the message may be shown to the client (true for 4xx errors). */
  expose: boolean
  /** Headers to send with the error response, if any. */
  headers?: Record<string, string>
  [key: string]: unknown
}

/** The machine-readable kinds of body-parser errors, found in `err.type`. */
export type BodyParserErrorType =
  | 'charset.unsupported'
  | 'encoding.unsupported'
  | 'entity.parse.failed'
  | 'entity.too.large'
  | 'entity.verify.failed'
  | 'parameters.too.many'
  | 'request.aborted'
  | 'request.size.invalid'
  | 'stream.encoding.set'
  | 'stream.not.readable'

/**
 * An error produced by a body parser (`json`, `raw`, `text`, `urlencoded`):
 * match on `type` rather than on the message.
 *
 * @example
 * app.use((err: BodyParserError, req: Request, res: Response, next: NextFunction) => {
 *   if (err.type === 'entity.too.large') return res.status(413).send('too big')
 *   next(err)
 * })
 */
export interface BodyParserError extends HttpError {
  /** Which failure happened. */
  type: BodyParserErrorType
  /** The body that was read, when available (parse and verify failures). */
  body?: string | Buffer
  /** The unsupported charset (`charset.unsupported`). */
  charset?: string
  /** The unsupported content encoding (`encoding.unsupported`). */
  encoding?: string
  /** The limit in bytes (`entity.too.large`). */
  limit?: number
  /** The body length in bytes (`entity.too.large`, `request.size.invalid`). */
  length?: number
  /** Bytes received before the client aborted (`request.aborted`, `request.size.invalid`). */
  received?: number
  /** Bytes that were expected (`request.aborted`, `request.size.invalid`). */
  expected?: number
}

/** A Node-style callback (`res.sendFile`, `res.download`): an error, or nothing on success. */
export type Errback = (err?: Error) => void

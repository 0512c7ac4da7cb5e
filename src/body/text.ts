// fw.text(): read bodies into a string.
import type { IncomingMessage } from 'node:http'
import { debugNamespace } from '../utils/debug'
import { commonReader, optionsObject, requestCharset, type BaseOptions } from './options'
import { read, type BodyRequest, type Reader } from './read'
import type { BodyParser } from './json'

/** body-parser's debug namespace for this parser (`DEBUG=body-parser:text`). */
const debug = debugNamespace('body-parser:text')

/** Options of `text()`. */
export interface TextOptions extends BaseOptions {
  /** Charset used when the Content-Type names none (default 'utf-8'). */
  defaultCharset?: string
}

const identity = (body: string): string => body

/**
 * Create a middleware that reads `text/plain` bodies into a string at
 * `req.body`, decoded with the Content-Type's charset or `defaultCharset`.
 * @example app.use(fw.text({ type: 'text/*', defaultCharset: 'iso-8859-1' }))
 */
export function text(options?: TextOptions): BodyParser {
  const opts = optionsObject<TextOptions>(options)
  const defaultCharset = (opts.defaultCharset || 'utf-8') as string
  const reader: Reader = {
    debug,
    ...commonReader(opts, 'text/plain'),
    charset: (req: IncomingMessage) => requestCharset(req) ?? defaultCharset,
    parse: identity
  }
  return function textParser(req, res, next) {
    read(req as BodyRequest, res, next, reader)
  }
}

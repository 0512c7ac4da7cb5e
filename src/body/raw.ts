// fw.raw(): read bodies into a Buffer.
import { commonReader, optionsObject, type BaseOptions } from './options'
import { debugNamespace } from '../utils/debug'
import { read, type BodyRequest, type Reader } from './read'
import type { BodyParser } from './json'

/** body-parser's debug namespace for this parser (`DEBUG=body-parser:raw`). */
const debug = debugNamespace('body-parser:raw')

/** Options of `raw()`. */
export type RawOptions = BaseOptions

const noCharset = (): null => null
const identity = (body: Buffer): Buffer => body

/**
 * Create a middleware that reads `application/octet-stream` bodies into a
 * Buffer at `req.body`.
 * @example app.use(fw.raw({ type: 'image/*', limit: '5mb' }))
 */
export function raw(options?: RawOptions): BodyParser {
  const opts = optionsObject<RawOptions>(options)
  const reader: Reader = {
    debug,
    ...commonReader(opts, 'application/octet-stream'),
    charset: noCharset,
    parse: identity
  }
  return function rawParser(req, res, next) {
    read(req as BodyRequest, res, next, reader)
  }
}

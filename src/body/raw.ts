// fw.raw(): read bodies into a Buffer.
import { commonReader, optionsObject, type BaseOptions } from './options'
import { read, type BodyRequest, type Reader } from './read'
import type { BodyParser } from './json'

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
    ...commonReader(opts, 'application/octet-stream'),
    charset: noCharset,
    parse: identity
  }
  return function rawParser(req, res, next) {
    read(req as BodyRequest, res, next, reader)
  }
}

// The `switchyardjs/body-parser` entry: a drop-in for body-parser@2. The default
// export is the (deprecated, throwing) generic `bodyParser()` carrying the four
// parsers; the build makes it `module.exports`.
import { json } from './json'
import { raw } from './raw'
import { text } from './text'
import { urlencoded } from './urlencoded'

export { json, raw, text, urlencoded }
export type { BodyParser, JsonOptions } from './json'
export type { RawOptions } from './raw'
export type { TextOptions } from './text'
export type { UrlencodedOptions } from './urlencoded'
export type { BaseOptions, TypeOption, VerifyFunction } from './options'
export type { BodyError } from './errors'

/** The module's callable default export: body-parser's generic parser, which no longer exists. */
export interface BodyParserModule {
  (...args: unknown[]): never
  json: typeof json
  raw: typeof raw
  text: typeof text
  urlencoded: typeof urlencoded
}

/**
 * The generic `bodyParser()` was split into `json`, `raw`, `text` and
 * `urlencoded`; calling it throws, as in body-parser@2.
 * @example const bodyParser = require('switchyardjs/body-parser'); app.use(bodyParser.json())
 */
const bodyParser = function bodyParser(): never {
  throw new Error('The bodyParser() generic has been split into individual middleware to use instead.')
} as BodyParserModule

bodyParser.json = json
bodyParser.raw = raw
bodyParser.text = text
bodyParser.urlencoded = urlencoded

export default bodyParser

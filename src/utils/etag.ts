// Entity tags for dynamic responses, as the `etag` package makes them:
// `"<byte length in hex>-<first 27 chars of the base64 SHA-1>"`, prefixed
// with `W/` when weak. Two savings over calling the package per response:
// - the one-shot `crypto.hash` (Node >= 20.12) instead of a Hash object, with
//   `createHash` as the fallback where it is missing;
// - short string bodies, which repeat far more often than not (constant
//   texts, small JSON answers), keep their tag in a bounded cache keyed by
//   the body itself. A tag is a pure function of the body, so a cached tag is
//   the tag; the cache only ever saves the hashing.
import crypto from 'node:crypto'

type HashFn = (data: string | Buffer) => string

/** base64 SHA-1 of the data (strings as UTF-8). Exported for the fallback test. */
export function hashWith(oneShot: unknown): HashFn {
  if (typeof oneShot === 'function') {
    const hash = oneShot as (algorithm: string, data: string | Buffer, encoding: string) => string
    return (data) => hash('sha1', data, 'base64')
  }
  return (data) => crypto.createHash('sha1').update(data).digest('base64')
}

const sha1base64 = hashWith((crypto as { hash?: unknown }).hash)

/** The tag of `data` whose UTF-8 byte length is `length`. */
function makeTag(data: string | Buffer, length: number, weak: boolean): string {
  const tag = '"' + length.toString(16) + '-' + sha1base64(data).substring(0, 27) + '"'
  return weak ? 'W/' + tag : tag
}

/** Bodies longer than this (in UTF-16 units) are hashed every time: hashing the key would cost as much. */
export const CACHE_MAX_BODY = 1024
/** Entries per cache; the oldest entry leaves when a new one arrives. */
export const CACHE_MAX_ENTRIES = 256

const weakCache = new Map<string, string>()
const strongCache = new Map<string, string>()

/** The tag of a string body whose UTF-8 byte length is known. */
export function stringTag(body: string, length: number, weak: boolean): string {
  if (body.length > CACHE_MAX_BODY) return makeTag(body, length, weak)
  const cache = weak ? weakCache : strongCache
  let tag = cache.get(body)
  if (tag === undefined) {
    tag = makeTag(body, length, weak)
    if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string)
    cache.set(body, tag)
  }
  return tag
}

/** The tag of a body: a string (with `encoding`, default UTF-8) or bytes. */
export function entityTag(body: string | Buffer, encoding: BufferEncoding | undefined, weak: boolean): string {
  if (typeof body === 'string') {
    if (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8') {
      return stringTag(body, Buffer.byteLength(body, 'utf8'), weak)
    }
    const bytes = Buffer.from(body, encoding)
    return makeTag(bytes, bytes.length, weak)
  }
  return makeTag(body, body.length, weak)
}

/** How many entries each cache holds now (for tests). */
export function cacheSizes(): { weak: number; strong: number } {
  return { weak: weakCache.size, strong: strongCache.size }
}

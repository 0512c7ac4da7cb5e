// Option types of `fw.static` (serve-static@2) and of `res.sendFile`/`res.download` (send@1).
import type { ServerResponse } from 'node:http'
import type { Stats } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import type { Response } from './response'

/** Options of `fw.static(root, options)`; `setHeaders` receives the full response object. */
export interface ServeStaticOptions<R extends ServerResponse = Response> {
  /** Honour `Range` requests and send `Accept-Ranges`. Default true. */
  acceptRanges?: boolean | undefined
  /** Send `Cache-Control`. Default true. */
  cacheControl?: boolean | undefined
  /** Files and directories starting with a dot: 'allow', 'deny' or 'ignore' (default; anything else throws). A string, as serve-static's types have it. */
  dotfiles?: string | undefined
  /** Send a weak `ETag`. Default true. */
  etag?: boolean | undefined
  /** Extensions tried when the file is not found, e.g. `['html']`. Default false. */
  extensions?: string[] | string | boolean | undefined
  /** Let 404s and client errors fall through to `next()`. Default true. */
  fallthrough?: boolean | undefined
  /** Add `immutable` to `Cache-Control`. Default false. */
  immutable?: boolean | undefined
  /** Directory index file(s), or false. Default 'index.html'. */
  index?: string[] | string | boolean | undefined
  /** Send `Last-Modified`. Default true. */
  lastModified?: boolean | undefined
  /** `Cache-Control` max-age in ms, or an ms string such as '1d'. Default 0. */
  maxAge?: number | string | undefined
  /** Redirect directories to the path with a trailing '/'. Default true. */
  redirect?: boolean | undefined
  /** Set custom headers on a file response (synchronously): `res.set(...)`, `res.vary(...)` work. */
  setHeaders?: ((res: R, path: string, stat: Stats) => any) | undefined
}

/** The middleware `fw.static` returns. */
export type ServeStaticMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: any) => void) => void

/** Options of `res.sendFile(path, options)`. */
export interface SendFileOptions {
  /** `Cache-Control` max-age in ms or an ms string. Default 0. */
  maxAge?: number | string | undefined
  /** Root directory for a relative path. */
  root?: string | undefined
  /** Headers to send with the file. */
  headers?: Record<string, unknown> | undefined
  /** Files starting with a dot. Default 'ignore'. */
  dotfiles?: 'allow' | 'deny' | 'ignore' | undefined
  /** Honour `Range`. Default true. */
  acceptRanges?: boolean | undefined
  /** Send `Cache-Control`. Default true. */
  cacheControl?: boolean | undefined
  /** Add `immutable` to `Cache-Control`. Default false. */
  immutable?: boolean | undefined
  /** Send `Last-Modified`. Default true. */
  lastModified?: boolean | undefined
  /** Send an `ETag`. Default true. */
  etag?: boolean | undefined
  /** Extensions tried when the file is not found. */
  extensions?: string[] | string | boolean | undefined
  /** Directory index file(s). */
  index?: string[] | string | boolean | undefined
  /** First byte to send. */
  start?: number | undefined
  /** Last byte to send. */
  end?: number | undefined
}

/** Options of `res.download(path, filename, options)`. */
export interface DownloadOptions extends SendFileOptions {}

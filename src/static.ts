/**
 * `fw.static(root, options)`: serve files from a directory, a drop-in for
 * serve-static@2 as used by `express.static`.
 *
 * The file streaming itself (path decoding, traversal and dotfile checks,
 * conditional GET, ranges, caching headers) is done by `send`. This module
 * validates the options once, picks the directory listener at creation time and
 * turns `send`'s outcomes into `next()` / `next(err)` / a redirect / a 405.
 */
import { resolve } from 'node:path'
import type { Stats } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { format as formatUrl } from 'node:url'
import send from 'send'
import parseUrl from 'parseurl'
import encodeUrl from 'encodeurl'
import escapeHtml from 'escape-html'

/** The `next` callback the static middleware calls when it does not answer. */
export type StaticNext = (err?: unknown) => void

/** `setHeaders(res, path, stat)`: called synchronously before a file's headers are written. */
export type StaticSetHeaders = (res: ServerResponse, path: string, stat: Stats) => void

/** Options of `fw.static(root, options)`; every option of serve-static@2. */
export interface ServeStaticOptions {
  /** Advertise and honour byte ranges (`Accept-Ranges`, `Range`). Default true. */
  acceptRanges?: boolean
  /** Send a `Cache-Control` header. Default true; false ignores `maxAge` and `immutable`. */
  cacheControl?: boolean
  /** How files or directories starting with a dot are treated. Default 'ignore'. */
  dotfiles?: 'allow' | 'deny' | 'ignore'
  /** Send a weak `ETag`. Default true. */
  etag?: boolean
  /** Extensions tried in order when the file is not found, e.g. `['html', 'htm']`. Default false. */
  extensions?: string[] | string | false
  /** When true, 404s and client errors call `next()`; when false they call `next(err)`. Default true. */
  fallthrough?: boolean
  /** Add the `immutable` directive to `Cache-Control`. Default false. */
  immutable?: boolean
  /** Directory index file name(s), or false to disable. Default 'index.html'. */
  index?: string[] | string | false
  /** Send `Last-Modified` from the file's mtime. Default true. */
  lastModified?: boolean
  /** `Cache-Control` max-age in milliseconds, or an ms string such as '1d'. Default 0. */
  maxAge?: number | string
  /** Redirect a directory without trailing slash to the path with '/'. Default true. */
  redirect?: boolean
  /** Hook to set custom headers on a file response. */
  setHeaders?: StaticSetHeaders
}

/** The middleware returned by `fw.static`. */
export type StaticMiddleware = (req: IncomingMessage, res: ServerResponse, next: StaticNext) => void

/** `send`'s stream as a 'directory' listener sees it. */
type DirectoryStream = send.SendStream & { req: IncomingMessage }

interface SendError extends Error {
  statusCode?: number
  status?: number
}

/**
 * Create a middleware serving the files under `root`, like `express.static`.
 *
 * The file is `root` joined with the decoded path of the request (relative to
 * the mount point). GET and HEAD are served; other methods call `next()`
 * (or get a 405 when `fallthrough` is false).
 *
 * @example
 * app.use(fw.static('public', { maxAge: '1d', extensions: ['html'] }))
 * app.use('/assets', fw.static(path.join(__dirname, 'assets'), { fallthrough: false }))
 */
export function serveStatic(root: string, options?: ServeStaticOptions): StaticMiddleware {
  if (!root) throw new TypeError('root path required')
  if (typeof root !== 'string') throw new TypeError('root path must be a string')

  // Inherit from the caller's options so that every key reaches `send`, as in serve-static.
  const opts = Object.create(options ?? null) as ServeStaticOptions & send.SendOptions
  const fallthrough = opts.fallthrough !== false
  const redirect = opts.redirect !== false
  const setHeaders = opts.setHeaders
  if (setHeaders && typeof setHeaders !== 'function') {
    throw new TypeError('option setHeaders must be function')
  }
  opts.root = resolve(root)
  const onDirectory = redirect ? redirectDirectory : notFound

  return function serveStatic(req: IncomingMessage, res: ServerResponse, next: StaticNext): void {
    const method = req.method
    if (method !== 'GET' && method !== 'HEAD') {
      if (fallthrough) { next(); return }
      methodNotAllowed(res)
      return
    }

    // the URL as received first, as serve-static parses it: both parses stay
    // cached on req (`_parsedOriginalUrl`, `_parsedUrl`), in that order
    const original = parseUrl.original(req)
    let path = parseUrl(req)?.pathname ?? ''
    // A mount point requested without its trailing slash ('/static' -> '/'):
    // let `send` see the directory itself so that it redirects.
    if (path === '/' && !endsWithSlash(original?.pathname)) path = ''

    const stream = send(req, path, opts)
    // (named as serve-static's listeners: a 'headers' listener can list them)
    let forwardError = !fallthrough
    stream.on('directory', onDirectory)
    if (setHeaders) stream.on('headers', setHeaders)
    if (fallthrough) stream.on('file', function onFile() { forwardError = true })
    // client errors fall through unless forwarding; server errors always forward
    stream.on('error', function error(err: SendError) {
      if (forwardError || !((err.statusCode as number) < 500)) next(err)
      else next()
    })
    stream.pipe(res)
  }
}

/** 405 for methods other than GET/HEAD when not falling through. */
function methodNotAllowed(res: ServerResponse): void {
  res.statusCode = 405
  res.setHeader('Allow', 'GET, HEAD')
  res.setHeader('Content-Length', '0')
  res.end()
}

/** Whether the pathname of the URL as received (before mount-path stripping) ends with '/'. */
function endsWithSlash(pathname: string | null | undefined): boolean {
  return pathname != null && pathname.charCodeAt(pathname.length - 1) === 47 /* / */
}

/** 'directory' listener when `redirect` is false: a directory is not found. */
function notFound(this: DirectoryStream): void {
  this.error(404)
}

/** 'directory' listener when `redirect` is true: 301 to the same URL with a trailing slash. */
const redirectDirectory = function redirect(this: DirectoryStream, res: ServerResponse): void {
  if (this.hasTrailingSlash()) {
    this.error(404)
    return
  }
  // the whole URL as received, with '/' added to its path: an absolute-form
  // request keeps its scheme and host, a '#' its fragment. As serve-static
  // does, the parse cached on req is changed in place
  const original = parseUrl.original(this.req)
  let location: string
  if (original) {
    original.path = null
    original.pathname = collapseLeadingSlashes(original.pathname + '/')
    location = encodeUrl(formatUrl(original))
  } else {
    location = '/'
  }
  const body = redirectDocument(escapeHtml(location))

  res.statusCode = 301
  res.setHeader('Content-Type', 'text/html; charset=UTF-8')
  res.setHeader('Content-Length', Buffer.byteLength(body))
  res.setHeader('Content-Security-Policy', "default-src 'none'")
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Location', location)
  res.end(body)
}

/** '//host/x' -> '/host/x': never redirect to a protocol-relative URL. */
function collapseLeadingSlashes(path: string): string {
  let i = 0
  while (i < path.length && path.charCodeAt(i) === 47 /* / */) i++
  return i > 1 ? '/' + path.slice(i) : path
}

/** The small HTML page sent with a directory redirect (`location` already escaped). */
function redirectDocument(location: string): string {
  return '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<title>Redirecting</title>\n</head>\n<body>\n' +
    '<pre>Redirecting to ' + location + '</pre>\n</body>\n</html>\n'
}

export default serveStatic

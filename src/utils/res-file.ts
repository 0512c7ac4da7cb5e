// File transfer for res.sendFile / res.download, on the `send` package.
import type http from 'node:http'
import { basename, isAbsolute, resolve } from 'node:path'
import { create as contentDisposition } from 'content-disposition'
import onFinished from 'on-finished'
import send from 'send'

/** Options of `res.sendFile` / `res.download` (handed to `send`, plus `headers`). */
export interface SendFileOptions {
  /** Cache-Control max-age in milliseconds or an `ms` string ('1d'). Default 0. */
  maxAge?: number | string
  /** Directory that a relative path is resolved against; the path must stay inside it. */
  root?: string
  /** Set Last-Modified (default true). */
  lastModified?: boolean
  /** Extra headers for the response (for download, Content-Disposition is always the attachment one). */
  headers?: Record<string, string | number | string[]>
  /** 'allow', 'deny' or 'ignore' (default) for dotfiles. */
  dotfiles?: 'allow' | 'deny' | 'ignore'
  /** Answer Range requests (default true). */
  acceptRanges?: boolean
  /** Set Cache-Control (default true). */
  cacheControl?: boolean
  /** Add the `immutable` Cache-Control directive (default false). */
  immutable?: boolean
  [option: string]: unknown
}

/** Completion callback of `res.sendFile` / `res.download`. */
export type SendFileCallback = (err?: NodeJS.ErrnoException & { status?: number; statusCode?: number }) => void

function codedError(message: string, code: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(message)
  err.code = code
  return err
}

/**
 * Check `res.sendFile` arguments and return the path in the URL form `send`
 * expects. Throws TypeError for a missing or non-string path, or a relative
 * path without `root`.
 */
export function sendFilePath(path: unknown, options: { root?: unknown }): string {
  if (!path) throw new TypeError('path argument is required to res.sendFile')
  if (typeof path !== 'string') throw new TypeError('path must be a string to res.sendFile')
  // (`root` read only now, as Express reads it: after the path checks)
  if (!options.root && !isAbsolute(path)) throw new TypeError('path must be absolute or specify root to res.sendFile')
  return encodeURI(path)
}

/**
 * Stream `path` (URL-encoded, see `sendFilePath`) to `res` and call `done`
 * exactly once: with nothing when the file was sent; with `send`'s error
 * (404 for a missing file, 403/400 for refused paths, 416...); with an
 * `EISDIR` error for a directory; with an `ECONNABORTED` error when the
 * client went away first.
 */
export function transferFile(req: http.IncomingMessage, res: http.ServerResponse, path: string, options: SendFileOptions, done: SendFileCallback): void {
  const file = send(req, path, options as send.SendOptions)
  let finished = false
  let streaming: boolean | undefined

  const finish = (err?: NodeJS.ErrnoException): void => {
    if (finished) return
    finished = true
    done(err)
  }
  const aborted = (): void => finish(codedError('Request aborted', 'ECONNABORTED'))

  file.on('directory', () => finish(codedError('EISDIR, read', 'EISDIR')))
  file.on('end', () => finish())
  file.on('error', (err: NodeJS.ErrnoException) => finish(err))
  file.on('file', () => { streaming = false })
  file.on('stream', () => { streaming = true })

  // (named as Express's listener: on-finished names the AsyncResource it
  // runs in after it, which async_hooks report)
  onFinished(res, function onfinish(err) {
    if (err && (err as NodeJS.ErrnoException).code === 'ECONNRESET') return aborted()
    if (err) return finish(err)
    if (finished) return
    // 'end' fires on the stream's own schedule: give it one turn before
    // deciding that a finished response with an open stream was aborted.
    setImmediate(() => {
      if (streaming !== false && !finished) aborted()
      else finish()
    })
  })

  if (options.headers) {
    // read when send is about to answer, as Express reads them
    file.on('headers', (out: http.ServerResponse) => {
      const headers = options.headers!
      for (const name of Object.keys(headers)) out.setHeader(name, headers[name])
    })
  }

  file.pipe(res)
}

/**
 * `res.download(path [, filename] [, options] [, fn])` as Express sorts it
 * out: a function in an optional place is the callback; an object (or null)
 * in the filename place, followed by nothing or the callback, is the
 * options. The options handed on are a new object whose prototype is the
 * caller's options (`Object.create`, so inherited and non-enumerable options
 * still reach `send`; a primitive throws there, as in Express), with a
 * `Content-Disposition: attachment` header naming `filename` (or the file)
 * that no caller-supplied Content-Disposition overrides. The path is made
 * absolute unless a `root` is given.
 */
export function downloadCall(path: unknown, filename: unknown, options: unknown, callback: unknown): { path: string; options: SendFileOptions; done: unknown } {
  let done = callback
  let name: any = filename
  let opts: any = options || null
  if (typeof filename === 'function') {
    done = filename
    name = null
    opts = null
  } else if (typeof options === 'function') {
    done = options
    opts = null
  }
  if (typeof filename === 'object' && (typeof options === 'function' || options === undefined)) {
    name = null
    opts = filename
  }
  const headers: Record<string, any> = {
    'Content-Disposition': contentDisposition(basename(name || path))
  }
  if (opts && opts.headers) {
    for (const key of Object.keys(opts.headers)) {
      if (key.toLowerCase() !== 'content-disposition') headers[key] = opts.headers[key]
    }
  }
  opts = Object.create(opts)
  opts.headers = headers
  return { path: !opts.root ? resolve(path as string) : (path as string), options: opts, done }
}

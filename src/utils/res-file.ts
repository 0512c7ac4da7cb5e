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
export function sendFilePath(path: unknown, root: unknown): string {
  if (!path) throw new TypeError('path argument is required to res.sendFile')
  if (typeof path !== 'string') throw new TypeError('path must be a string to res.sendFile')
  if (!root && !isAbsolute(path)) throw new TypeError('path must be absolute or specify root to res.sendFile')
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

  const headers = options.headers
  if (headers) {
    const names = Object.keys(headers)
    file.on('headers', (out: http.ServerResponse) => {
      for (const name of names) out.setHeader(name, headers[name])
    })
  }

  onFinished(res, (err) => {
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

  file.pipe(res)
}

/** The arguments of `res.download`, sorted out. */
export interface DownloadArgs {
  name: string | null
  options: SendFileOptions
  done: SendFileCallback | undefined
}

/**
 * Sort out `res.download(path [, filename] [, options] [, fn])`: a function
 * in any optional place is the callback; an object in the filename place
 * (followed by nothing or the callback) is the options.
 */
export function downloadArgs(filename: unknown, options: unknown, callback: unknown): DownloadArgs {
  let name: any = filename
  let opts: any = options
  let done: any = callback
  if (typeof filename === 'function') {
    done = filename
    name = null
    opts = null
  } else if (typeof options === 'function') {
    done = options
    opts = null
  }
  if (typeof filename === 'object' && filename !== null && (typeof options === 'function' || options === undefined)) {
    name = null
    opts = filename
  }
  return { name: name ?? null, options: opts ?? {}, done }
}

/**
 * The options `res.download` hands to `res.sendFile`: the caller's, with a
 * `Content-Disposition: attachment` header naming `name` (or the file) that
 * no caller-supplied Content-Disposition can override, and the absolute path.
 */
export function downloadTransfer(path: string, name: string | null, options: SendFileOptions): { path: string; options: SendFileOptions } {
  const headers: Record<string, string | number | string[]> = {
    'Content-Disposition': contentDisposition(basename(name || path))
  }
  const given = options.headers
  if (given) {
    for (const key of Object.keys(given)) {
      if (key.toLowerCase() !== 'content-disposition') headers[key] = given[key]
    }
  }
  return { path: options.root ? path : resolve(path), options: { ...options, headers } }
}

import escapeHtml from 'escape-html'
import encodeUrl from 'encodeurl'
import onFinished from 'on-finished'
import parseUrl from 'parseurl'
import statuses from 'statuses'
import { resetHttp2Stream } from './http2'
import createDebug from 'debug'

/** finalhandler's debug namespace (`DEBUG=finalhandler`), with its messages. */
const debug = createDebug('finalhandler')

/** Options of the default final handler. */
export interface FinalOptions {
  env: string
  onerror?: (err: any, req: any, res: any) => void
}

function errorStatus(err: any): number | undefined {
  if (typeof err.status === 'number' && err.status >= 400 && err.status < 600) return err.status
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 600) return err.statusCode
  return undefined
}

function responseStatus(res: any): number {
  const status = res.statusCode
  return typeof status !== 'number' || status < 400 || status > 599 ? 500 : status
}

function errorMessage(err: any, status: number, env: string): string {
  let msg: string | undefined
  if (env !== 'production') {
    msg = err.stack
    if (!msg && typeof err.toString === 'function') msg = err.toString()
  }
  return msg || (statuses.message[status] as string)
}

/**
 * The path the 404 names: the original URL's pathname, which is null (and
 * printed "null", as finalhandler prints it) for a target with no path
 * (`GET http:// HTTP/1.1`); 'resource' when there is no URL to parse.
 */
function resourceName(req: any): string {
  try {
    return parseUrl.original(req)!.pathname as string
  } catch {
    return 'resource'
  }
}

function htmlDocument(message: string): string {
  const body = escapeHtml(message).replace(/\n/g, '<br>').replace(/\x20{2}/g, ' &nbsp;')
  return '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>' + body + '</pre>\n</body>\n</html>\n'
}

function headersSent(res: any): boolean {
  return typeof res.headersSent !== 'boolean' ? Boolean(res._header) : res.headersSent
}

function writeAnswer(req: any, res: any, status: number, headers: Record<string, unknown> | undefined, message: string): void {
  const body = htmlDocument(message)
  res.statusCode = status
  if (req.httpVersionMajor < 2) res.statusMessage = statuses.message[status]
  res.removeHeader('Content-Encoding')
  res.removeHeader('Content-Language')
  res.removeHeader('Content-Range')
  if (headers) for (const key of Object.keys(headers)) res.setHeader(key, headers[key])
  res.setHeader('Content-Security-Policy', "default-src 'none'")
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Content-Type', 'text/html; charset=utf-8')
  res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'))
  if (req.method === 'HEAD') res.end()
  else res.end(body, 'utf8')
}

/**
 * The default last step of an app: 404 `Cannot METHOD /path` when nothing
 * answered, or an HTML error page for `err` (status from err.status or
 * err.statusCode, headers from err.headers, the stack outside production).
 * When headers were already sent, the socket is destroyed.
 */
export function finalHandler(req: any, res: any, err: any, options: FinalOptions): void {
  let status: number
  let headers: Record<string, unknown> | undefined
  let msg: string
  if (!err && headersSent(res)) {
    debug('cannot 404 after headers sent')
    return
  }
  if (err) {
    const fromError = errorStatus(err)
    if (fromError === undefined) {
      status = responseStatus(res)
    } else {
      status = fromError
      headers = err.headers && typeof err.headers === 'object' ? { ...err.headers } : undefined
    }
    msg = errorMessage(err, status, options.env)
    debug('default %s', status)
  } else {
    status = 404
    debug('default 404')
    msg = 'Cannot ' + req.method + ' ' + encodeUrl(resourceName(req))
  }
  if (err && options.onerror) setImmediate(options.onerror, err, req, res)
  if (headersSent(res)) {
    debug('cannot %d after headers sent', status)
    // the client must see that the response is cut short: over HTTP/2 that is
    // a reset of this stream (the connection serves others)
    if (req.httpVersionMajor === 2) resetHttp2Stream(req)
    else req.socket?.destroy()
    return
  }
  if (onFinished.isFinished(req)) {
    writeAnswer(req, res, status, headers, msg)
    return
  }
  // drain the request body before answering, so keep-alive stays usable
  req.unpipe()
  // (a function named write, as finalhandler's: on-finished names the
  // AsyncResource it runs in after the listener, which async_hooks report)
  onFinished(req, function write() { writeAnswer(req, res, status, headers, msg) })
  req.resume()
}

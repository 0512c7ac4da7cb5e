// The body and headers of res.redirect, made through the response's own
// methods as Express makes them (a middleware that wraps one sees its calls).
import { Buffer } from 'node:buffer'
import escapeHtml from 'escape-html'
import statuses from 'statuses'
import type { Response } from '../response'

/**
 * Answer with `status` and the Location already set: the body picked from
 * Accept through `res.format` (a text line, a small HTML page, or nothing),
 * then `res.status` and `res.set` for the length; HEAD gets no body.
 */
export function redirectResponse(res: Response, status: number): void {
  const location = res.get('Location') as string
  let body = ''
  res.format({
    text() {
      body = statuses.message[status] + '. Redirecting to ' + location
    },
    html() {
      const message = statuses.message[status]
      body = '<!DOCTYPE html><head><title>' + message + '</title></head><body><p>' +
        message + '. Redirecting to ' + escapeHtml(location) + '</p></body>'
    },
    default() {
      body = ''
    }
  })
  res.status(status)
  res.set('Content-Length', Buffer.byteLength(body) as unknown as string)
  if (res.req.method === 'HEAD') res.end()
  else res.end(body)
}

// Small helpers shared by the application and router tests.
/** A handler that answers `text` with res.end (independent of res.send). */
export function reply(text: string | ((req: any) => string)) {
  return (req: any, res: any) => {
    res.setHeader('Content-Type', 'text/plain')
    res.end(typeof text === 'function' ? text(req) : text)
  }
}

/** An error handler that answers `status: message`. */
export function catchAll(status = 500) {
  return (err: any, req: any, res: any, next: any) => {
    res.statusCode = err.status || status
    res.end('error: ' + err.message)
  }
}

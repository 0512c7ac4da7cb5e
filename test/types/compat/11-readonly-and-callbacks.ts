// Computed request properties are read-only; Errback receives no error on success.
import express, { type Errback, type Request } from 'switchyardjs'

function inspect(req: Request) {
  const summary = [req.protocol, req.secure, req.ip, req.ips, req.subdomains, req.path, req.hostname, req.host, req.fresh, req.stale, req.xhr]
  // @ts-expect-error computed from the request
  req.protocol = 'https'
  // @ts-expect-error computed from the request
  req.secure = true
  // @ts-expect-error computed from the request
  req.ip = '10.0.0.1'
  // @ts-expect-error computed from the request
  req.ips = []
  // @ts-expect-error computed from the request
  req.subdomains = []
  // @ts-expect-error computed from the request
  req.path = '/'
  // @ts-expect-error computed from the request
  req.hostname = 'example.com'
  // @ts-expect-error computed from the request
  req.host = 'example.com'
  // @ts-expect-error computed from the request
  req.fresh = false
  // @ts-expect-error computed from the request
  req.stale = true
  // @ts-expect-error computed from the request
  req.xhr = false
  req.url = '/rewritten'
  req.method = 'GET'
  return summary
}

const finished: Errback = (err) => {
  if (err) console.error(err.stack)
}
finished()
finished(new Error('failed'))

const app = express()
app.use((req, _res, next) => {
  inspect(req)
  next()
})
app.get('/file', (_req, res) => res.sendFile('/etc/hostname', finished))

// Patterns from real projects that compile against @types/express and must
// compile unchanged against switchyard (found by a sweep of the two): header
// objects of any shape, webhook verify callbacks typed with the app's Request,
// option objects declared apart, render to a string, hand-written engines,
// the matched route, settings read directly, and routers exported for
// declaration files.
import express, { Router } from 'switchyardjs'
import type { Request, Response, NextFunction } from 'switchyardjs'
import type { IncomingHttpHeaders } from 'node:http'

const app = express()

// res.set / res.header with an interface, optional values, Node's header objects
interface SecurityHeaders { 'X-Frame-Options': string; 'X-Content-Type-Options': string }
const security: SecurityHeaders = { 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff' }
app.use((req: Request, res: Response, next: NextFunction) => {
  res.set(security)
  res.header({ 'X-Request-Id': req.get('x-request-id') })
  const upstream: IncomingHttpHeaders = { 'content-type': 'text/plain', 'set-cookie': ['a=1'] }
  res.set(upstream)
  next()
})

// a raw-body webhook: verify typed with a Request that carries the raw body
interface RawRequest extends Request { rawBody?: Buffer }
app.use(express.json({
  verify: (req: RawRequest, res: Response, buf: Buffer, encoding: BufferEncoding) => { req.rawBody = buf; void res; void encoding }
}))
app.use(express.urlencoded({ extended: false, verify(req: RawRequest, _res: Response, buf: Buffer) { req.rawBody = buf } }))

// static options declared apart (dotfiles widens to string)
const staticOptions = { dotfiles: 'ignore', maxAge: '1d', index: ['index.html'] }
app.use(express.static('public', staticOptions))

// render to a string, with the callback annotated as @types/express types it
function renderToString(view: string, locals: object): Promise<string> {
  return new Promise((resolve, reject) => {
    app.render(view, locals, (err: Error, html: string) => (err ? reject(err) : resolve(html)))
  })
}
void renderToString

// a hand-written engine whose callback takes any error
app.engine('tpl', (path: string, options: object, callback: (err: unknown, rendered?: string) => void) => {
  callback(null, `${path}:${JSON.stringify(options)}`)
})

// the matched route, as metrics middlewares read it
app.use((req: Request, _res: Response, next: NextFunction) => {
  if (req.route) console.log(req.route.path, Object.keys(req.route.methods), req.route.stack.length)
  next()
})

// settings read directly
const env: string = app.settings.env
void env

// a router module: its inferred type must be nameable in an emitted declaration file
export const users = Router()
users.get('/', (_req, res) => { res.send('users') })
export const nested = express.Router({ mergeParams: true })
export class Controller { router = Router() }
export default users

// Types read through the default import's namespace, the most common style.
import express from 'switchyardjs'

const app: express.Application = express()
const router: express.Router = express.Router({ caseSensitive: true, strict: true })

const requestId: express.RequestHandler = (req, res, next) => {
  res.setHeader('X-Request-Id', req.get('x-request-id') ?? Math.random().toString(16).slice(2))
  next()
}

function notFound(req: express.Request, res: express.Response): void {
  res.status(404).json({ error: `no route for ${req.method} ${req.path}` })
}

const onError: express.ErrorRequestHandler = (err, _req, res, _next) => {
  res.status(typeof err.status === 'number' ? err.status : 500).send(err.message)
}

const handlers: express.Handler[] = [requestId]
const cookie: express.CookieOptions = { secure: true, domain: 'example.com' }
const done: express.Errback = (err) => { if (err) console.error(err.message) }
const continueWith = (next: express.NextFunction) => next('route')
const send: express.Send = (body) => null as unknown as express.Response
const mountable: express.IRouter = router
const locals: express.Locals = {}
const paramHandler: express.RequestParamHandler = (req, _res, next, value: string) => { next() }
const options: express.RouterOptions = { mergeParams: true }
const whole: express.Express = express()

router.use(...handlers)
router.param('id', paramHandler)
app.use('/v1', mountable)
app.use(notFound)
app.use(onError)
whole.use(app)
export { cookie, done, continueWith, send, locals, options }

// Code written against the `express.Request` namespace style of @types/express.
import express from 'switchyardjs'

function paginate(req: express.Request, _res: express.Response, next: express.NextFunction): void {
  const page = Number(req.query.page ?? 1)
  req.query.page = String(Number.isFinite(page) && page > 0 ? page : 1)
  next()
}

const handler: express.RequestHandler = (req, res) => {
  res.json({ page: req.query.page, ip: req.ip, host: req.hostname })
}

const cookieDefaults: express.CookieOptions = { httpOnly: true, sameSite: 'lax', secure: true }

const router: express.Router = express.Router({ strict: true })
router.get('/items', paginate, handler)
router.post('/login', (_req, res) => {
  res.cookie('session', 'abc', { ...cookieDefaults, maxAge: 3600_000 }).sendStatus(204)
})

const app: express.Express = express()
app.use(router)

// An everyday app: default and named imports, settings, routes, responses.
import express, { json, urlencoded, Router } from 'switchyardjs'
import type { Express, Request, Response, NextFunction } from 'switchyardjs'
import http from 'node:http'

const app: Express = express()
app.set('trust proxy', 1)
app.set('view engine', 'pug')
app.enable('case sensitive routing')
app.disable('x-powered-by')
const env: string = app.get('env')
const strict: boolean = app.enabled('strict routing') || app.disabled('etag')
app.locals.title = 'Shop'

app.use(json({ limit: '2mb' }))
app.use(urlencoded({ extended: true }))
app.use(express.text({ type: 'text/*' }), express.raw({ type: 'application/octet-stream' }))

function logger(req: Request, res: Response, next: NextFunction) {
  const started = Date.now()
  res.on('finish', () => console.log(req.method, req.originalUrl, res.statusCode, Date.now() - started))
  next()
}
app.use(logger)

app.get('/', (req, res) => {
  res.status(200).type('html').send('<h1>hello</h1>')
})

app.get('/health', (_req, res) => {
  res.set('Cache-Control', 'no-store').set({ 'X-Health': 'ok', 'X-Count': 1 }).json({ ok: true })
})

app.get('/search', (req, res) => {
  const q = req.query.q
  const term = typeof q === 'string' ? q : ''
  const lang = req.acceptsLanguages('en', 'fr') || 'en'
  const wantsJson = req.accepts(['html', 'json']) === 'json'
  if (req.is('application/json') === false && req.get('x-debug')) res.vary('X-Debug')
  res.format({
    'text/plain': () => res.send(`${term} (${lang})`),
    'application/json': () => res.json({ term, lang, wantsJson }),
    default: () => res.sendStatus(406)
  })
})

app.post('/login', (req, res) => {
  const { user } = req.body
  res
    .cookie('session', String(user), { httpOnly: true, sameSite: 'strict', maxAge: 3_600_000, signed: false })
    .clearCookie('legacy', { path: '/' })
    .redirect(303, '/')
})

app.all('/legacy/*rest', (req, res) => {
  res.location('/new').status(301).end()
})

app.route('/items')
  .get((_req, res) => { res.json([]) })
  .post((req, res) => { res.status(201).json(req.body) })

const api = Router()
api.get('/ping', (_req, res) => { res.send('pong') })
app.use('/api', api)

const server: http.Server = app.listen(3000, () => console.log(env, strict))
server.close()
http.createServer(app).close()

// The app the fuzzer attacks, built by the same function for switchyard and
// for the express@5 oracle: params, *splat, a mounted router with router.param,
// a sub-app, static files, cookies (cookie-parser), the extended query parser,
// trust proxy, all four body parsers, sync and async errors.
// Every response carries X-Seq, copied from the request's x-seq header, so the
// client can tell which request a response belongs to (desync detection).
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const here = path.dirname(fileURLToPath(import.meta.url))
export const STATIC_ROOT = path.join(here, '..', 'fixtures', 'static', 'root')

/** The two implementations: switchyard's built package, and the oracle. */
export function implementations() {
  return { switchyard: require('../../dist/index.cjs'), express: require('express') }
}

/** Build the fuzz target with `lib` (switchyard or express). */
export function buildApp(lib) {
  const cookieParser = require('cookie-parser')
  const app = lib()
  app.set('trust proxy', true)
  app.set('query parser', 'extended')
  app.set('etag', 'strong')

  app.use((req, res, next) => {
    const seq = req.headers['x-seq']
    if (typeof seq === 'string' && /^[0-9]{1,12}$/.test(seq)) res.setHeader('X-Seq', seq)
    next()
  })
  app.use(cookieParser('fuzz-secret'))

  app.get('/', (req, res) => { res.send('home') })
  app.get('/users/:id', (req, res) => { res.json({ id: req.params.id, q: req.query }) })
  app.get('/users/:id/books/:book{.:ext}', (req, res) => { res.json(req.params) })
  app.get('/files/*splat', (req, res) => { res.json({ splat: req.params.splat }) })
  app.all('/echo{/*rest}', (req, res) => {
    res.json({ method: req.method, path: req.path, query: req.query, ip: req.ip, ips: req.ips, protocol: req.protocol, secure: req.secure, hostname: req.hostname, subdomains: req.subdomains, xhr: req.xhr, fresh: req.fresh })
  })
  app.get('/cookies', (req, res) => { res.json({ cookies: req.cookies, signed: req.signedCookies }) })
  app.get('/set-cookie', (req, res) => {
    const { name = 'n', value = 'v', path: p, domain, signed } = req.query
    res.cookie(String(name), String(value), { path: p === undefined ? undefined : String(p), domain: domain === undefined ? undefined : String(domain), signed: signed === '1' })
    res.send('ok')
  })
  app.get('/redirect', (req, res) => { res.redirect(String(req.query.to ?? '/')) })
  app.get('/accepts', (req, res) => { res.format({ text: () => res.send('t'), json: () => res.json({ j: 1 }), html: () => res.send('<p>h</p>') }) })
  app.get('/range', (req, res) => { res.json({ range: req.range(1000) ?? null }) })
  app.get('/sync-error', () => { throw new Error('sync') })
  app.get('/async-error', async () => { throw Object.assign(new Error('async'), { status: 418 }) })
  app.get('/jsonp', (req, res) => { res.jsonp({ a: '\u2028' }) })
  app.get('/download', (req, res) => { res.download(path.join(STATIC_ROOT, 'todo.txt'), 'to do.txt') })
  app.get('/sendfile/*file', (req, res, next) => { res.sendFile(req.params.file.join('/'), { root: STATIC_ROOT }, (err) => { if (err) next(err) }) })

  const api = lib.Router({ mergeParams: true })
  api.param('item', (req, res, next, value) => {
    if (value === 'forbidden') return next(Object.assign(new Error('no'), { status: 403 }))
    req.item = value.toUpperCase()
    next()
  })
  api.get('/items/:item{/:sub}', (req, res) => { res.json({ item: req.item, params: req.params }) })
  api.use('/nested/:n', lib.Router({ mergeParams: true }).get('/leaf', (req, res) => { res.json(req.params) }))
  app.use('/api/:version', api)

  const sub = lib()
  sub.get('/', (req, res) => { res.json({ sub: true, baseUrl: req.baseUrl, ip: req.ip }) })
  sub.get('/p/:x', (req, res) => { res.json({ x: req.params.x, url: req.originalUrl }) })
  app.use('/sub', sub)

  app.use('/static', lib.static(STATIC_ROOT))
  app.use('/strict-static', lib.static(STATIC_ROOT, { fallthrough: false, dotfiles: 'deny' }))

  app.post('/body/json', lib.json(), (req, res) => { res.json({ body: req.body }) })
  app.post('/body/loose', lib.json({ strict: false, limit: '2kb' }), (req, res) => { res.json({ body: req.body }) })
  app.post('/body/form', lib.urlencoded({ extended: true }), (req, res) => { res.json({ body: req.body }) })
  app.post('/body/simple', lib.urlencoded({ extended: false, parameterLimit: 50 }), (req, res) => { res.json({ body: req.body }) })
  app.post('/body/text', lib.text({ type: 'text/*', limit: '4kb' }), (req, res) => { res.json({ body: req.body }) })
  app.post('/body/raw', lib.raw({ type: () => true, limit: '8kb' }), (req, res) => { res.json({ length: req.body?.length }) })
  app.use('/body/all', lib.json(), lib.urlencoded({ extended: true }), lib.text(), lib.raw(), (req, res) => { res.json({ type: typeof req.body }) })

  app.use((req, res) => { res.status(404).send('not found') })
  app.use((err, req, res, next) => {
    const status = typeof err.status === 'number' && err.status >= 400 && err.status < 600 ? err.status : 500
    res.status(status).json({ error: err.type ?? err.message })
  })
  return app
}

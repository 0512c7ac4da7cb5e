// Real third-party middleware and template engines, used unchanged: the same
// app built with switchyard and with express@5 must answer the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import express from 'express'
import cors from 'cors'
import helmet from 'helmet'
import morgan from 'morgan'
import compression from 'compression'
import methodOverride from 'method-override'
import cookieParser from 'cookie-parser'
import session from 'express-session'
import multer from 'multer'
import passport from 'passport'
import { Strategy as LocalStrategy } from 'passport-local'
import fw from '../../src/index'
import { comparable, listen, request, type RawRequest } from '../support/diff'
import { consoleErrors } from '../support/output'

const views = join(__dirname, '../fixtures/eco-views')

/** Everything each app logged through morgan. */
const logs = new Map<unknown, string[]>()

function build(lib: any) {
  const app = lib()
  app.set('env', 'production')
  app.set('views', views)
  const lines: string[] = []
  logs.set(lib, lines)

  app.use(morgan(':method :url :status :res[content-length] :req[x-trace]', {
    stream: new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk).trim()); cb() } })
  }))
  app.use('/helmet', helmet())
  app.use('/cors', cors({ origin: ['https://allowed.example'], credentials: true, exposedHeaders: ['X-Total'] }))
  app.use('/gzip', compression({ threshold: 0 }))
  app.use(methodOverride('X-HTTP-Method-Override'))
  app.use(cookieParser('cookie secret'))
  app.use(lib.urlencoded({ extended: false }))

  app.get('/helmet/page', (req: any, res: any) => res.send('<p>protected</p>'))
  app.get('/cors/data', (req: any, res: any) => res.set('X-Total', '3').json([1, 2, 3]))
  app.get('/gzip/big', (req: any, res: any) => res.send('compress me '.repeat(500)))
  app.delete('/override', (req: any, res: any) => res.send('deleted via ' + req.originalMethod))

  app.get('/cookies/set', (req: any, res: any) => {
    res.cookie('plain', 'v1', { httpOnly: true })
    res.cookie('signed', { a: 1 }, { signed: true, path: '/cookies' })
    res.send('set')
  })
  app.get('/cookies/read', (req: any, res: any) => res.json({ cookies: req.cookies, signed: req.signedCookies }))

  // sessions with a fixed id generator, so Set-Cookie is deterministic
  app.use('/session', session({ secret: 'session secret', resave: false, saveUninitialized: false, genid: () => 'fixed-session-id' }))
  app.get('/session/count', (req: any, res: any) => {
    req.session.views = (req.session.views || 0) + 1
    res.json({ views: req.session.views })
  })

  // multipart uploads
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 1000 } })
  app.post('/upload', upload.single('doc'), (req: any, res: any) => {
    res.json({ body: req.body, file: req.file && { name: req.file.originalname, type: req.file.mimetype, size: req.file.size, text: req.file.buffer.toString() } })
  })
  app.use('/upload', (err: any, req: any, res: any, next: any) => res.status(err.code === 'LIMIT_FILE_SIZE' ? 413 : 400).json({ code: err.code }))

  // passport with a local strategy (a fresh Passport per app)
  const auth = new (passport as any).Passport()
  auth.use(new LocalStrategy((username: string, password: string, done: any) => {
    done(null, username === 'ada' && password === 'lovelace' ? { name: 'ada' } : false, { message: 'bad credentials' })
  }))
  app.post('/login', auth.initialize(), auth.authenticate('local', { session: false, failureRedirect: '/login?failed=1' }), (req: any, res: any) => res.json({ user: req.user }))

  // template engines loaded by extension through __express
  app.get('/view/:engine', (req: any, res: any) => res.render('page.' + req.params.engine, { title: 'Hi <there>', items: ['a', 'b & c'] }))
  app.get('/view-missing', (req: any, res: any) => res.render('nope.pug'))
  return app
}

const multipart = (parts: Array<{ name: string; value: string; filename?: string; type?: string }>) => {
  const boundary = '----switchyardboundary'
  let body = ''
  for (const p of parts) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n`
    if (p.type) body += `Content-Type: ${p.type}\r\n`
    body += `\r\n${p.value}\r\n`
  }
  body += `--${boundary}--\r\n`
  return { headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body }
}

/** A case: the request, the status it must get if not under 500, and what each app's default error handler logs (production apps log a 500). */
const cases: Array<RawRequest & { name: string; status?: number; logged?: string }> = [
  { name: 'helmet headers', path: '/helmet/page' },
  { name: 'cors preflight allowed', method: 'OPTIONS', path: '/cors/data', headers: { Origin: 'https://allowed.example', 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'X-Custom' } },
  { name: 'cors preflight other origin', method: 'OPTIONS', path: '/cors/data', headers: { Origin: 'https://other.example', 'Access-Control-Request-Method': 'PUT' } },
  { name: 'cors simple request', path: '/cors/data', headers: { Origin: 'https://allowed.example' } },
  { name: 'compression gzip', path: '/gzip/big', headers: { 'Accept-Encoding': 'gzip' } },
  { name: 'compression identity', path: '/gzip/big', headers: { 'Accept-Encoding': 'identity' } },
  { name: 'method-override', method: 'POST', path: '/override', headers: { 'X-HTTP-Method-Override': 'DELETE' } },
  { name: 'cookies set', path: '/cookies/set' },
  { name: 'cookies read signed', path: '/cookies/read', headers: { Cookie: 'plain=v1; signed=s%3Aj%3A%7B%22a%22%3A1%7D.wrong; other=x' } },
  { name: 'session first visit', path: '/session/count' },
  { name: 'multipart file and field', method: 'POST', path: '/upload', ...multipart([{ name: 'title', value: 'report' }, { name: 'doc', value: 'file body', filename: 'a.txt', type: 'text/plain' }]) },
  { name: 'multipart file too large', method: 'POST', path: '/upload', ...multipart([{ name: 'doc', value: 'x'.repeat(2000), filename: 'big.txt' }]) },
  { name: 'multipart unexpected field', method: 'POST', path: '/upload', ...multipart([{ name: 'other', value: 'x', filename: 'x.txt' }]) },
  { name: 'passport success', method: 'POST', path: '/login', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'username=ada&password=lovelace' },
  { name: 'passport failure redirect', method: 'POST', path: '/login', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'username=ada&password=wrong' },
  { name: 'passport missing credentials', method: 'POST', path: '/login' },
  { name: 'pug view', path: '/view/pug' },
  { name: 'hbs view', path: '/view/hbs' },
  { name: 'ejs view', path: '/view/ejs' },
  { name: 'missing view', path: '/view-missing', status: 500, logged: `Error: Failed to lookup view "nope.pug" in views directory "${views}"` }
]

describe('third-party middleware and engines: switchyard vs express@5', () => {
  let ours: Awaited<ReturnType<typeof listen>>
  let theirs: Awaited<ReturnType<typeof listen>>
  beforeAll(async () => {
    ours = await listen(build(fw))
    theirs = await listen(build(express))
  })
  afterAll(async () => {
    await ours.close()
    await theirs.close()
  })

  for (const c of cases) {
    it(c.name, async () => {
      let a!: Awaited<ReturnType<typeof request>>
      let b!: Awaited<ReturnType<typeof request>>
      const logged = await consoleErrors(c.logged ? 2 : 0, async () => {
        a = await request(ours.port, c)
        b = await request(theirs.port, c)
      })
      expect(logged).toEqual(c.logged ? [c.logged, c.logged] : [])
      expect(comparable(a)).toEqual(comparable(b))
      // the middleware really ran: no case may fail unless it is meant to
      if (c.status !== undefined) expect(a.status).toBe(c.status)
      else expect(a.status).toBeLessThan(500)
    })
  }

  it('keeps a session across requests', async () => {
    const first = await request(ours.port, { path: '/session/count' })
    const cookie = String(first.headers['set-cookie']).split(';')[0]
    const second = await request(ours.port, { path: '/session/count', headers: { Cookie: cookie } })
    expect(second.body).toBe('{"views":2}')
  })

  it('reads back a cookie it signed', async () => {
    const set = await request(ours.port, { path: '/cookies/set' })
    const cookies = (set.headers['set-cookie'] as string[]).map((c) => c.split(';')[0]).join('; ')
    const read = await request(ours.port, { path: '/cookies/read', headers: { Cookie: cookies } })
    expect(JSON.parse(read.body)).toEqual({ cookies: { plain: 'v1' }, signed: { signed: { a: 1 } } })
  })

  it('morgan logged the same lines for both', () => {
    const mine = logs.get(fw)!
    const oracle = logs.get(express)!
    expect(mine.length).toBeGreaterThanOrEqual(cases.length)
    expect(mine.slice(0, cases.length)).toEqual(oracle.slice(0, cases.length))
  })
})

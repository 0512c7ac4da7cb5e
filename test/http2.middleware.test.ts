// Popular Express middleware, used unchanged over HTTP/2: every request is
// sent over HTTP/1.1 and over HTTP/2 to the same app (on
// http2.createSecureServer({ allowHTTP1: true })) and the answers compared.
// docs/http2.md reports the results.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Writable } from 'node:stream'
import { gunzipSync } from 'node:zlib'
import cors from 'cors'
import helmet from 'helmet'
import morgan from 'morgan'
import compression from 'compression'
import cookieParser from 'cookie-parser'
import session from 'express-session'
import multer from 'multer'
import fw from '../src/index'
import { comparable, sameAnswers, serve, type Pair, type Req } from './support/http2'

const lines: string[] = []

function build() {
  const app = fw()
  app.set('env', 'production')
  app.use(morgan(':method :url :status :res[content-length] :req[x-trace]', {
    stream: new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk).trim()); cb() } })
  }))
  app.use('/helmet', helmet())
  app.use('/cors', cors({ origin: ['https://allowed.example'], credentials: true, exposedHeaders: ['X-Total'] }))
  app.use('/gzip', compression({ threshold: 0 }))
  app.use(cookieParser('cookie secret'))

  app.get('/helmet/page', (req: any, res: any) => res.send('<p>protected</p>'))
  app.get('/cors/data', (req: any, res: any) => res.set('X-Total', '3').json([1, 2, 3]))
  app.get('/gzip/big', (req: any, res: any) => res.send('compress me '.repeat(500)))
  app.get('/gzip/stream', (req: any, res: any) => {
    res.type('text')
    res.write('part one, ')
    res.end('part two')
  })
  app.get('/cookies/set', (req: any, res: any) => {
    res.cookie('plain', 'v1', { httpOnly: true })
    res.cookie('signed', { a: 1 }, { signed: true, path: '/cookies' })
    res.send('set')
  })
  app.get('/cookies/read', (req: any, res: any) => res.json({ cookies: req.cookies, signed: req.signedCookies }))

  app.use('/session', session({ secret: 'session secret', resave: false, saveUninitialized: false, genid: () => 'fixed-session-id' }))
  app.get('/session/count', (req: any, res: any) => {
    req.session.views = (req.session.views || 0) + 1
    res.json({ views: req.session.views })
  })

  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 1000 } })
  app.post('/upload', upload.single('doc'), (req: any, res: any) => {
    res.json({ body: req.body ?? null, file: req.file ? { name: req.file.originalname, type: req.file.mimetype, size: req.file.size, text: req.file.buffer.toString() } : null })
  })
  app.use('/upload', (err: any, req: any, res: any, next: any) => res.status(err.code === 'LIMIT_FILE_SIZE' ? 413 : 400).json({ code: err.code }))
  return app
}

function multipart(parts: Array<{ name: string; value: string; filename?: string; type?: string }>, withLength = true): Pick<Req, 'headers' | 'body'> {
  const boundary = '----switchyardboundary'
  let body = ''
  for (const p of parts) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n`
    if (p.type) body += `Content-Type: ${p.type}\r\n`
    body += `\r\n${p.value}\r\n`
  }
  body += `--${boundary}--\r\n`
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` }
  if (withLength) headers['content-length'] = String(Buffer.byteLength(body))
  return { headers, body }
}

const matrix: Array<[string, Req]> = [
  ['helmet', { path: '/helmet/page' }],
  ['cors, allowed origin', { path: '/cors/data', headers: { origin: 'https://allowed.example' } }],
  ['cors, other origin', { path: '/cors/data', headers: { origin: 'https://evil.example' } }],
  ['cors preflight', { method: 'OPTIONS', path: '/cors/data', headers: { origin: 'https://allowed.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-custom' } }],
  ['compression, gzip', { path: '/gzip/big', headers: { 'accept-encoding': 'gzip' } }],
  ['compression, identity', { path: '/gzip/big', headers: { 'accept-encoding': 'identity' } }],
  ['compression, streamed writes', { path: '/gzip/stream', headers: { 'accept-encoding': 'gzip' } }],
  ['compression, HEAD', { method: 'HEAD', path: '/gzip/big', headers: { 'accept-encoding': 'gzip' } }],
  ['cookie-parser, set', { path: '/cookies/set' }],
  ['cookie-parser, read signed and plain', { path: '/cookies/read', headers: { cookie: 'plain=v1; signed=' + encodeURIComponent('s:j:{"a":1}.Wh2eFMV9V4FgjCGzR6zkgwHcQtBU4MpP1XGCALnD0nA') } }],
  ['express-session, new session', { path: '/session/count' }],
  ['express-session, existing session (not found in store)', { path: '/session/count', headers: { cookie: 'connect.sid=s%3Afixed-session-id.invalid' } }],
  ['multer, file and field', { method: 'POST', path: '/upload', ...multipart([{ name: 'title', value: 'report' }, { name: 'doc', value: 'file body', filename: 'a.txt', type: 'text/plain' }]) }],
  ['multer, file too large', { method: 'POST', path: '/upload', ...multipart([{ name: 'doc', value: 'x'.repeat(2000), filename: 'big.txt' }]) }],
  ['multer, unexpected field', { method: 'POST', path: '/upload', ...multipart([{ name: 'other', value: 'x', filename: 'x.txt' }]) }]
]

describe('popular middleware over HTTP/2', () => {
  const pair = sameAnswers(build, 'secure+http1', matrix)

  it('compression really compresses over HTTP/2', async () => {
    const two = await pair.h2({ path: '/gzip/big', headers: { 'accept-encoding': 'gzip' } })
    expect(two.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(two.body).toString()).toBe('compress me '.repeat(500))
  })

  it('express-session keeps a session across HTTP/2 requests', async () => {
    const first = await pair.h2({ path: '/session/count' })
    const cookie = String((first.headers['set-cookie'] as string[])[0]).split(';')[0]
    const second = await pair.h2({ path: '/session/count', headers: { cookie } })
    expect(JSON.parse(first.body.toString())).toEqual({ views: 1 })
    expect(JSON.parse(second.body.toString())).toEqual({ views: 2 })
  })

  it('morgan logs the same lines for both protocols', async () => {
    lines.length = 0
    await pair.h1({ path: '/cors/data?x=1', headers: { 'x-trace': 't1' } })
    await pair.h2({ path: '/cors/data?x=1', headers: { 'x-trace': 't1' } })
    await pair.h1({ path: '/nowhere' })
    await pair.h2({ path: '/nowhere' })
    expect(lines).toHaveLength(4)
    expect(lines[1]).toBe(lines[0])
    expect(lines[3]).toBe(lines[2])
    expect(lines[0]).toBe('GET /cors/data?x=1 200 7 t1')
  })

  it('multer needs a Content-Length over HTTP/2: without one, it sees no body (type-is)', async () => {
    const req = { method: 'POST', path: '/upload', ...multipart([{ name: 'doc', value: 'file body', filename: 'a.txt' }], false) }
    const two = await pair.h2(req)
    expect(JSON.parse(two.body.toString())).toEqual({ body: null, file: null })
  })
})

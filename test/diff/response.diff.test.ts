// Differential tests: every case builds the same route on an express@5 app and
// a switchyard app, sends the same request to both, and compares status,
// headers (ETag included) and body.
import { join } from 'node:path'
import cookieParser from 'cookie-parser'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { RawRequest } from '../support/diff'
import { both, bothWith, normalise, notFound, reportErrors } from '../support/res-diff'
import { request } from '../support/diff'
import { deprecationsIn } from '../support/output'

const FIXTURES = join(__dirname, '..', 'fixtures', 'res')
const file = (name: string): string => join(FIXTURES, name)

type Handler = (req: any, res: any, next: any) => void

interface Case {
  name: string
  handler: Handler
  request?: Partial<RawRequest>
  settings?: Record<string, unknown>
  setup?: (app: any) => void
  /** The deprecation warnings Express gives for the call (switchyard must give the same). */
  deprecations?: string[]
}

/** Wrap a header method of res (getHeader, hasHeader): each name asked before the head goes out lands in a header of the answer itself. */
function recordNames(res: any, method: 'getHeader' | 'hasHeader', header: string): void {
  const asked: string[] = []
  const original = res[method]
  res[method] = function (this: any, name: string) {
    if (!this.headersSent) {
      asked.push(name)
      this.setHeader(header, asked.join(','))
    }
    return original.call(this, name)
  }
}

/** The names a wrapped res.getHeader is asked for, in X-Asked. */
function recordAsked(res: any): void {
  recordNames(res, 'getHeader', 'X-Asked')
}

/** The names a wrapped res.hasHeader is asked for, in X-Has. */
function recordHas(res: any): void {
  recordNames(res, 'hasHeader', 'X-Has')
}

/**
 * Wrap res.end as body-logging middleware does: what it is called with lands
 * in an X-End header (set from inside the wrapper, so the head must not be
 * built yet), and the body it logs with Buffer.concat in X-Logged.
 */
function recordEnd(res: any): void {
  const end = res.end
  res.end = function (this: any, chunk?: any, encoding?: any) {
    const kind = chunk === undefined ? 'undefined' : `${typeof chunk}:${chunk?.constructor?.name}`
    this.setHeader('X-End', `${kind}/${String(encoding)}/${arguments.length}`)
    let logged: string
    try {
      logged = chunk === undefined ? '' : Buffer.concat([chunk]).toString('utf8')
    } catch (err: any) {
      logged = 'cannot log: ' + err.code
    }
    this.setHeader('X-Logged', encodeURIComponent(logged))
    return end.apply(this, arguments)
  }
}

/**
 * Wrap res.writeHead as on-headers does, with a listener that puts a
 * Content-Disposition holding a latin1 byte ahead of Content-Length. Node
 * rewrites that value when it builds the head knowing the body's length from
 * end() (or from a Content-Length line before it).
 */
function dispositionInWriteHead(res: any): void {
  const writeHead = res.writeHead
  res.writeHead = function (this: any, ...args: any[]) {
    const length = this.getHeader('Content-Length')
    this.removeHeader('Content-Length')
    this.setHeader('Content-Disposition', 'attachment; filename="r\u00e9sum\u00e9.txt"')
    if (length !== undefined) this.setHeader('Content-Length', length)
    return writeHead.apply(this, args)
  }
}

const HTML = { accept: 'text/html' }
const TEXT = { accept: 'text/plain' }
const JSON_ACCEPT = { accept: 'application/json' }
const IMAGE = { accept: 'image/png' }

// Every handler catches nothing: thrown errors reach `reportErrors`.
const cases: Case[] = [
  // res.status / res.sendStatus
  { name: 'status(201).send', handler: (req, res) => res.status(201).send('made') },
  { name: 'status(999).end', handler: (req, res) => res.status(999).end() },
  { name: 'status(1.5) throws', handler: (req, res) => res.status(1.5) },
  { name: 'status("200") throws', handler: (req, res) => res.status('200') },
  { name: 'status(99) throws', handler: (req, res) => res.status(99) },
  { name: 'status(1000) throws', handler: (req, res) => res.status(1000) },
  { name: 'status(undefined) throws', handler: (req, res) => res.status(undefined) },
  { name: 'sendStatus(200)', handler: (req, res) => res.sendStatus(200) },
  { name: 'sendStatus(404)', handler: (req, res) => res.sendStatus(404) },
  { name: 'sendStatus(599) unknown', handler: (req, res) => res.sendStatus(599) },
  { name: 'sendStatus(204)', handler: (req, res) => res.sendStatus(204) },
  { name: 'sendStatus(1000) throws', handler: (req, res) => res.sendStatus(1000) },
  { name: 'sendStatus HEAD', handler: (req, res) => res.sendStatus(201), request: { method: 'HEAD' } },

  // res.set / res.header / res.get / res.append
  { name: 'set(field, value)', handler: (req, res) => res.set('X-A', 'b').end() },
  { name: 'set number and boolean', handler: (req, res) => res.set({ 'X-N': 5, 'X-B': true }).end() },
  { name: 'set array', handler: (req, res) => res.set('X-L', [1, 'two']).end() },
  { name: 'set Content-Type text', handler: (req, res) => res.set('Content-Type', 'text/plain').end() },
  { name: 'set Content-Type json', handler: (req, res) => res.set('Content-Type', 'application/json').end() },
  { name: 'set Content-Type extension', handler: (req, res) => res.set('content-type', 'html').end() },
  { name: 'set Content-Type unknown extension', handler: (req, res) => res.set('Content-Type', 'zzz').end() },
  { name: 'set Content-Type with charset kept', handler: (req, res) => res.set('Content-Type', 'text/plain; charset=latin1').end() },
  { name: 'set Content-Type array throws', handler: (req, res) => res.set('Content-Type', ['a/b']) },
  { name: 'set CRLF value refused', handler: (req, res) => res.set('X-A', 'a\r\nSet-Cookie: x=1').end() },
  { name: 'header alias', handler: (req, res) => res.header('X-H', 'v').end() },
  { name: 'get reads back', handler: (req, res) => { res.set('X-Q', 'w'); res.send(String(res.get('x-q'))) } },
  { name: 'append creates and extends', handler: (req, res) => res.append('X-A', '1').append('X-A', ['2', '3']).end() },
  { name: 'append then set resets', handler: (req, res) => res.append('X-A', '1').append('X-A', '2').set('X-A', '3').end() },
  { name: 'append Set-Cookie after cookie', handler: (req, res) => res.cookie('a', 'b').append('Set-Cookie', 'c=d').end() },

  // res.vary / res.type / res.links / res.attachment
  { name: 'vary twice', handler: (req, res) => res.vary('Accept').vary('accept').vary('Origin').end() },
  { name: 'vary array', handler: (req, res) => res.vary(['Accept', 'User-Agent']).end() },
  { name: 'type(json)', handler: (req, res) => res.type('json').end() },
  { name: 'type(.html)', handler: (req, res) => res.type('.html').end() },
  { name: 'type(unknown)', handler: (req, res) => res.type('nope').end() },
  { name: 'type(image/png)', handler: (req, res) => res.type('image/png').end() },
  { name: 'type(text/x-custom)', handler: (req, res) => res.contentType('text/x-custom').end() },
  { name: 'links', handler: (req, res) => res.links({ next: '/p/2', last: '/p/9' }).end() },
  { name: 'links twice and array', handler: (req, res) => res.links({ alt: ['/a', '/b'] }).links({ prev: '/p/1' }).end() },
  { name: 'attachment()', handler: (req, res) => res.attachment().end() },
  { name: 'attachment(pdf)', handler: (req, res) => res.attachment('docs/report.pdf').end() },
  { name: 'attachment(unicode)', handler: (req, res) => res.attachment('résumé ü.txt').end() },
  { name: 'attachment(no extension)', handler: (req, res) => res.attachment('README').end() },

  // res.send
  { name: 'send(string)', handler: (req, res) => res.send('<b>hi</b>') },
  { name: 'send(unicode string)', handler: (req, res) => res.send('héllo ✓') },
  { name: 'send(long string)', handler: (req, res) => res.send('x'.repeat(5000)) },
  { name: 'send(string) with text type', handler: (req, res) => res.type('txt').send('plain') },
  { name: 'send(string) replaces charset', handler: (req, res) => res.set('Content-Type', 'text/plain; charset=iso-8859-1').send('x') },
  { name: 'send(string) keeps other params', handler: (req, res) => res.set('Content-Type', 'text/plain; format=flowed').send('x') },
  { name: 'send(string) octet type gets charset', handler: (req, res) => res.type('bin').send('x') },
  { name: 'send(string) after false type', handler: (req, res) => res.set('Content-Type', 'zzz').send('x') },
  { name: 'send(Buffer)', handler: (req, res) => res.send(Buffer.from('buf')) },
  { name: 'send(Buffer) with type', handler: (req, res) => res.type('txt').send(Buffer.from('buf')) },
  { name: 'send(Uint8Array)', handler: (req, res) => res.send(new Uint8Array([65, 66, 67])) },
  { name: 'send(object)', handler: (req, res) => res.send({ a: 1 }) },
  { name: 'send(array)', handler: (req, res) => res.send([1, 'two']) },
  { name: 'send(number)', handler: (req, res) => res.send(42) },
  { name: 'send(boolean)', handler: (req, res) => res.send(false) },
  { name: 'send(null)', handler: (req, res) => res.send(null) },
  { name: 'send(null) with type', handler: (req, res) => res.type('txt').send(null) },
  { name: 'send(null) with a type that has no charset', handler: (req, res) => res.type('bin').send(null) },
  { name: 'send a string after an empty Content-Type', handler: (req, res) => { res.setHeader('Content-Type', ''); res.send('x') } },
  { name: 'send a string after a numeric Content-Type', handler: (req, res) => { res.setHeader('Content-Type', 5); res.send('x') } },
  { name: 'send a string after a Content-Type array', handler: (req, res) => { res.setHeader('Content-Type', ['text/plain']); res.send('x') } },
  { name: 'send(null) with a type set by setHeader', handler: (req, res) => { res.setHeader('Content-Type', 'text/plain'); res.send(null) } },
  { name: 'send after res.attachment with a latin1 file name', handler: (req, res) => res.attachment('r\u00e9sum\u00e9.txt').send('x') },
  { name: 'json with a non-ASCII Content-Disposition', handler: (req, res) => res.set('Content-Disposition', 'inline; filename="caf\u00e9"').json({ a: 1 }) },
  { name: 'send()', handler: (req, res) => res.send() },
  { name: 'send("")', handler: (req, res) => res.send('') },
  { name: 'send with own ETag', handler: (req, res) => res.set('ETag', '"mine"').send('x') },
  { name: 'send 304 on If-None-Match', handler: (req, res) => res.set('ETag', '"v1"').send('x'), request: { headers: { 'if-none-match': '"v1"' } } },
  { name: 'send 200 on stale If-None-Match', handler: (req, res) => res.set('ETag', '"v2"').send('x'), request: { headers: { 'if-none-match': '"v1"' } } },
  { name: 'send 304 on generated weak ETag', handler: (req, res) => res.send('hello'), request: { headers: { 'if-none-match': 'W/"5-qvTGHdzF6KLavt4PO0gs2a6pQ00"' } } },
  { name: 'send no 304 for POST', handler: (req, res) => res.set('ETag', '"v1"').send('x'), request: { method: 'POST', headers: { 'if-none-match': '"v1"' } } },
  { name: 'send no 304 for 500', handler: (req, res) => res.status(500).set('ETag', '"v1"').send('x'), request: { headers: { 'if-none-match': '"v1"' } } },
  { name: 'send 204 strips', handler: (req, res) => res.status(204).type('txt').send('gone') },
  { name: 'send 304 strips', handler: (req, res) => res.status(304).set('Transfer-Encoding', 'chunked').send('gone') },
  { name: 'send 205 empties', handler: (req, res) => res.status(205).send('reset') },
  { name: 'send HEAD', handler: (req, res) => res.send('head body'), request: { method: 'HEAD' } },
  { name: 'send with Transfer-Encoding', handler: (req, res) => res.set('Transfer-Encoding', 'chunked').send('chunks') },
  { name: 'send etag disabled', handler: (req, res) => res.send('no tag'), settings: { etag: false } },
  { name: 'send etag strong', handler: (req, res) => res.send('strong tag'), settings: { etag: 'strong' } },
  { name: 'send etag function', handler: (req, res) => res.send('custom'), settings: { etag: (body: Buffer) => '"len-' + body.length + '"' } },
  { name: 'send etag function returning nothing', handler: (req, res) => res.send('custom'), settings: { etag: () => undefined } },

  // res.json
  { name: 'json(object)', handler: (req, res) => res.json({ user: 'tobi', n: [1, 2] }) },
  { name: 'json(undefined)', handler: (req, res) => res.json(undefined) },
  { name: 'json(null)', handler: (req, res) => res.json(null) },
  { name: 'json(string)', handler: (req, res) => res.json('str') },
  { name: 'json keeps type', handler: (req, res) => res.type('application/vnd.api+json').json({ a: 1 }) },
  { name: 'json spaces', handler: (req, res) => res.json({ a: { b: 1 } }), settings: { 'json spaces': 2 } },
  { name: 'json replacer', handler: (req, res) => res.json({ a: 1, secret: 2 }), settings: { 'json replacer': (k: string, v: unknown) => (k === 'secret' ? undefined : v) } },
  { name: 'json escape', handler: (req, res) => res.json({ html: '<script>&</script>' }), settings: { 'json escape': true } },
  { name: 'json escape off', handler: (req, res) => res.json({ html: '<&>' }) },
  { name: 'json circular throws', handler: (req, res) => { const o: any = {}; o.o = o; res.json(o) } },
  { name: 'json HEAD', handler: (req, res) => res.json({ a: 1 }), request: { method: 'HEAD' } },

  // res.jsonp
  { name: 'jsonp without callback', handler: (req, res) => res.jsonp({ a: 1 }) },
  { name: 'jsonp with callback', handler: (req, res) => res.jsonp({ a: 1 }), request: { path: '/t?callback=handle' } },
  { name: 'jsonp sanitises callback', handler: (req, res) => res.jsonp({ a: 1 }), request: { path: '/t?callback=foo%3Cbar%3E.baz[0]$%20alert(1)' } },
  { name: 'jsonp callback all unsafe', handler: (req, res) => res.jsonp({ a: 1 }), request: { path: '/t?callback=%3C%3E' } },
  { name: 'jsonp empty callback', handler: (req, res) => res.jsonp({ a: 1 }), request: { path: '/t?callback=' } },
  { name: 'jsonp repeated callback', handler: (req, res) => res.jsonp({ a: 1 }), request: { path: '/t?callback=f&callback=g' } },
  { name: 'jsonp nested callback ignored', handler: (req, res) => res.jsonp({ a: 1 }), request: { path: '/t?callback[x]=f' } },
  { name: 'jsonp nested callback extended parser', handler: (req, res) => res.jsonp({ a: 1 }), request: { path: '/t?callback[x]=f' }, settings: { 'query parser': 'extended' } },
  { name: 'jsonp escapes U+2028', handler: (req, res) => res.jsonp({ s: 'a\u2028b\u2029c' }), request: { path: '/t?callback=cb' } },
  { name: 'jsonp undefined body', handler: (req, res) => res.jsonp(undefined), request: { path: '/t?callback=cb' } },
  { name: 'jsonp custom callback name', handler: (req, res) => res.jsonp([1]), request: { path: '/t?cb=x&callback=y' }, settings: { 'jsonp callback name': 'cb' } },
  { name: 'jsonp preset type without callback', handler: (req, res) => res.type('txt').jsonp({ a: 1 }) },
  { name: 'jsonp preset type with callback', handler: (req, res) => res.type('txt').jsonp({ a: 1 }), request: { path: '/t?callback=cb' } },
  { name: 'jsonp escape and spaces', handler: (req, res) => res.jsonp({ a: '<>' }), request: { path: '/t?callback=cb' }, settings: { 'json escape': true, 'json spaces': 1 } },

  // res.location / res.redirect
  { name: 'location encodes', handler: (req, res) => res.location('/a b<c>"d?q=%zz&r=ü#f g').end() },
  { name: 'location keeps escapes', handler: (req, res) => res.location('/caf%C3%A9?x=%20').end() },
  { name: 'location back', handler: (req, res) => res.location('back').end(), request: { headers: { referer: '/from' } } },
  { name: 'location CRLF encoded', handler: (req, res) => res.location('/a\r\nSet-Cookie: x=1').end() },
  { name: 'redirect default', handler: (req, res) => res.redirect('/login') },
  { name: 'redirect 301', handler: (req, res) => res.redirect(301, 'http://example.com/new') },
  { name: 'redirect 307 html', handler: (req, res) => res.redirect(307, '/x'), request: { headers: HTML } },
  { name: 'redirect html escapes', handler: (req, res) => res.redirect('/a<b>"c d&e'), request: { headers: HTML } },
  { name: 'redirect text', handler: (req, res) => res.redirect('/a<b>'), request: { headers: TEXT } },
  { name: 'redirect other accept', handler: (req, res) => res.redirect('/x'), request: { headers: IMAGE } },
  { name: 'redirect json accept', handler: (req, res) => res.redirect('/x'), request: { headers: JSON_ACCEPT } },
  { name: 'redirect HEAD', handler: (req, res) => res.redirect('/x'), request: { method: 'HEAD', headers: HTML } },
  { name: 'redirect back', handler: (req, res) => res.redirect('back'), request: { headers: { referer: '/from' } } },
  { name: 'redirect unicode', handler: (req, res) => res.redirect('/ünï'), request: { headers: HTML } },
  { name: 'redirect bad status', handler: (req, res) => res.redirect(1000, '/x') },
  { name: 'redirect unregistered status', handler: (req, res) => res.redirect(399, '/x'), request: { headers: HTML } },

  // res.cookie / res.clearCookie
  { name: 'cookie string', handler: (req, res) => res.cookie('name', 'tobi').end() },
  { name: 'cookie object', handler: (req, res) => res.cookie('cart', { items: [1, 2] }).end() },
  { name: 'cookie null / undefined / number', handler: (req, res) => res.cookie('a', null).cookie('b', undefined).cookie('c', 5).end() },
  { name: 'cookie encodes value', handler: (req, res) => res.cookie('v', 'a b;c=d,é').end() },
  { name: 'cookie maxAge', handler: (req, res) => res.cookie('m', 'v', { maxAge: 90_500 }).end() },
  { name: 'cookie maxAge string', handler: (req, res) => res.cookie('m', 'v', { maxAge: '2000' }).end() },
  { name: 'cookie maxAge negative', handler: (req, res) => res.cookie('m', 'v', { maxAge: -1000 }).end() },
  { name: 'cookie maxAge invalid', handler: (req, res) => res.cookie('m', 'v', { maxAge: 'soon' }).end() },
  { name: 'cookie maxAge overrides expires', handler: (req, res) => res.cookie('m', 'v', { maxAge: 1000, expires: new Date(0) }).end() },
  { name: 'cookie expires', handler: (req, res) => res.cookie('e', 'v', { expires: new Date(Date.UTC(2030, 0, 2, 3, 4, 5)) }).end() },
  { name: 'cookie every option', handler: (req, res) => res.cookie('all', 'v', { domain: 'example.com', path: '/admin', httpOnly: true, secure: true, partitioned: true, priority: 'high', sameSite: 'strict' }).end() },
  { name: 'cookie sameSite true / lax / none', handler: (req, res) => res.cookie('a', '1', { sameSite: true }).cookie('b', '2', { sameSite: 'lax' }).cookie('c', '3', { sameSite: 'none', secure: true }).end() },
  { name: 'cookie priority low / medium', handler: (req, res) => res.cookie('a', '1', { priority: 'low' }).cookie('b', '2', { priority: 'medium' }).end() },
  { name: 'cookie bad sameSite', handler: (req, res) => res.cookie('a', '1', { sameSite: 'sometimes' }).end() },
  { name: 'cookie custom encode', handler: (req, res) => res.cookie('a', 'x y', { encode: (v: string) => v.replace(' ', '_') }).end() },
  { name: 'cookie invalid encode result', handler: (req, res) => res.cookie('a', 'x y', { encode: String }).end() },
  { name: 'cookie invalid name', handler: (req, res) => res.cookie('a b', 'v').end() },
  { name: 'cookie path null', handler: (req, res) => res.cookie('p', 'v', { path: null }).end() },
  { name: 'cookie signed without secret', handler: (req, res) => res.cookie('s', 'v', { signed: true }).end() },
  { name: 'cookie signed', handler: (req, res) => res.cookie('s', 'v', { signed: true }).cookie('o', { a: 1 }, { signed: true }).end(), setup: (app) => app.use(cookieParser('keyboard cat')) },
  { name: 'clearCookie', handler: (req, res) => res.clearCookie('sid').end() },
  { name: 'clearCookie ignores maxAge / expires', handler: (req, res) => res.clearCookie('sid', { path: '/admin', domain: 'example.com', maxAge: 1000, expires: new Date(Date.UTC(2040, 1, 1)) }).end() },
  { name: 'clearCookie signed', handler: (req, res) => res.clearCookie('s', { signed: true }).end(), setup: (app) => app.use(cookieParser('k')) },

  // res.format
  { name: 'format picks html', handler: (req, res) => res.format({ text: () => res.send('t'), html: () => res.send('<p>h</p>') }), request: { headers: HTML } },
  { name: 'format first without Accept', handler: (req, res) => res.format({ 'application/json': () => res.send({ j: 1 }), text: () => res.send('t') }) },
  { name: 'format wildcard Accept', handler: (req, res) => res.format({ text: () => res.send('t'), json: () => res.send('j') }), request: { headers: { accept: '*/*' } } },
  { name: 'format by quality', handler: (req, res) => res.format({ text: () => res.send('t'), json: () => res.json({ j: 1 }) }), request: { headers: { accept: 'text/plain;q=0.5, application/json' } } },
  { name: 'format key with params', handler: (req, res) => res.format({ 'text/html; charset=latin1': () => res.send('h') }), request: { headers: HTML } },
  { name: 'format default', handler: (req, res) => res.format({ json: () => res.send('j'), default: () => res.status(200).send('fallback') }), request: { headers: IMAGE } },
  { name: 'format 406', handler: (req, res) => res.format({ json: () => res.send('j'), 'text/html': () => res.send('h') }), request: { headers: IMAGE } },
  { name: 'format 406 unknown extension', handler: (req, res) => res.format({ nope: () => res.send('n') }), request: { headers: IMAGE } },
  { name: 'format empty', handler: (req, res) => res.format({}) },
  { name: 'format only default', handler: (req, res) => res.format({ default: () => res.send('d') }) },
  { name: 'format handler gets req/res/next', handler: (req, res) => res.format({ text: (rq: any, rs: any, next: any) => next(new Error(String(rq === req && rs === res))) }) },

  // res.render
  { name: 'render with locals', handler: (req, res) => { res.locals.site = 'S'; res.render('user', { name: 'tobi' }) }, setup: (app) => app.set('views', join(FIXTURES, 'views')).set('view engine', 'ejs') },
  { name: 'render app.locals', handler: (req, res) => res.render('user.ejs', { name: 'loki' }), setup: (app) => { app.set('views', join(FIXTURES, 'views')); app.locals.site = 'A' } },
  { name: 'render callback', handler: (req, res) => res.render('user', { name: 'x', site: 'y' }, (err: any, html: string) => res.type('txt').send('got ' + html)), setup: (app) => app.set('views', join(FIXTURES, 'views')).set('view engine', 'ejs') },
  { name: 'render missing view', handler: (req, res) => res.render('nope.ejs'), setup: (app) => app.set('views', join(FIXTURES, 'views')) },
  { name: 'render error to next', handler: (req, res) => res.render('broken.ejs', { name: 1 }), setup: (app) => app.set('views', join(FIXTURES, 'views')) },

  // res.sendFile
  { name: 'sendFile absolute', handler: (req, res) => res.sendFile(file('hello.txt')) },
  { name: 'sendFile html', handler: (req, res) => res.sendFile(file('page.html')) },
  { name: 'sendFile no extension', handler: (req, res) => res.sendFile(file('README')) },
  { name: 'sendFile with space', handler: (req, res) => res.sendFile(file('with space.txt')) },
  { name: 'sendFile relative throws', handler: (req, res) => res.sendFile('hello.txt') },
  { name: 'sendFile no path throws', handler: (req, res) => res.sendFile() },
  { name: 'sendFile non-string throws', handler: (req, res) => res.sendFile(42) },
  { name: 'sendFile root', handler: (req, res) => res.sendFile('sub/nested.txt', { root: FIXTURES }) },
  { name: 'sendFile root escape', handler: (req, res) => res.sendFile('../hello.txt', { root: join(FIXTURES, 'sub') }) },
  { name: 'sendFile root escape deep', handler: (req, res) => res.sendFile('sub/../../res/hello.txt', { root: FIXTURES }) },
  { name: 'sendFile NUL byte', handler: (req, res) => res.sendFile('hello.txt\0.png', { root: FIXTURES }) },
  { name: 'sendFile missing', handler: (req, res) => res.sendFile(file('missing.txt')) },
  { name: 'sendFile missing callback', handler: (req, res) => res.sendFile(file('missing.txt'), (err: any) => res.status(err.status).json({ cb: err.code })) },
  { name: 'sendFile directory', handler: (req, res) => res.sendFile(FIXTURES) },
  { name: 'sendFile directory callback', handler: (req, res) => res.sendFile(FIXTURES, (err: any) => res.status(500).json({ cb: err.code })) },
  { name: 'sendFile dotfile ignored', handler: (req, res) => res.sendFile(file('.secret')) },
  { name: 'sendFile dotfile allow', handler: (req, res) => res.sendFile(file('.secret'), { dotfiles: 'allow' }) },
  { name: 'sendFile dotfile deny', handler: (req, res) => res.sendFile(file('.secret'), { dotfiles: 'deny' }) },
  { name: 'sendFile dot directory', handler: (req, res) => res.sendFile(file('.hidden/inside.txt')) },
  { name: 'sendFile dot root', handler: (req, res) => res.sendFile('inside.txt', { root: file('.hidden') }) },
  { name: 'sendFile maxAge', handler: (req, res) => res.sendFile(file('hello.txt'), { maxAge: 60_000 }) },
  { name: 'sendFile maxAge string immutable', handler: (req, res) => res.sendFile(file('hello.txt'), { maxAge: '1d', immutable: true }) },
  { name: 'sendFile cacheControl false', handler: (req, res) => res.sendFile(file('hello.txt'), { cacheControl: false, maxAge: 5000 }) },
  { name: 'sendFile lastModified false', handler: (req, res) => res.sendFile(file('hello.txt'), { lastModified: false }) },
  { name: 'sendFile acceptRanges false', handler: (req, res) => res.sendFile(file('hello.txt'), { acceptRanges: false }), request: { headers: { range: 'bytes=0-1' } } },
  { name: 'sendFile headers', handler: (req, res) => res.sendFile(file('hello.txt'), { headers: { 'X-From': 'opts', 'Content-Type': 'text/x-mine' } }) },
  { name: 'sendFile etag disabled', handler: (req, res) => res.sendFile(file('hello.txt')), settings: { etag: false } },
  { name: 'sendFile callback on success', handler: (req, res) => res.sendFile(file('hello.txt'), (err: any) => { if (err) throw err }) },
  { name: 'sendFile Range', handler: (req, res) => res.sendFile(file('hello.txt')), request: { headers: { range: 'bytes=0-4' } } },
  { name: 'sendFile Range suffix', handler: (req, res) => res.sendFile(file('hello.txt')), request: { headers: { range: 'bytes=-5' } } },
  { name: 'sendFile Range unsatisfiable', handler: (req, res) => res.sendFile(file('hello.txt')), request: { headers: { range: 'bytes=50-60' } } },
  { name: 'sendFile Range multiple', handler: (req, res) => res.sendFile(file('hello.txt')), request: { headers: { range: 'bytes=0-1,3-4' } } },
  { name: 'sendFile HEAD', handler: (req, res) => res.sendFile(file('hello.txt')), request: { method: 'HEAD' } },
  { name: 'sendFile If-None-Match 304', handler: (req, res) => res.sendFile(file('hello.txt')), request: { headers: { 'if-modified-since': new Date(Date.now() + 86_400_000).toUTCString() } } },

  // res.download
  { name: 'download', handler: (req, res) => res.download(file('hello.txt')) },
  { name: 'download filename', handler: (req, res) => res.download(file('hello.txt'), 'report.txt') },
  { name: 'download unicode filename', handler: (req, res) => res.download(file('hello.txt'), 'rëport ü.txt') },
  { name: 'download filename with directories', handler: (req, res) => res.download(file('hello.txt'), 'a/b/c.txt') },
  { name: 'download options only', handler: (req, res) => res.download(file('hello.txt'), { maxAge: 2000 }) },
  { name: 'download headers cannot replace disposition', handler: (req, res) => res.download(file('hello.txt'), 'x.txt', { headers: { 'content-disposition': 'inline', 'X-B': 'c' } }) },
  { name: 'download root', handler: (req, res) => res.download('sub/nested.txt', 'n.bin', { root: FIXTURES }) },
  { name: 'download root escape', handler: (req, res) => res.download('../hello.txt', { root: join(FIXTURES, 'sub') }) },
  { name: 'download relative to cwd', handler: (req, res) => res.download('test/fixtures/res/hello.txt') },
  { name: 'download missing', handler: (req, res) => res.download(file('missing.txt')) },
  { name: 'download missing callback', handler: (req, res) => res.download(file('missing.txt'), (err: any) => res.status(err.status).json({ cb: err.code })) },
  { name: 'download name and callback', handler: (req, res) => res.download(file('hello.txt'), 'n.txt', (err: any) => { if (err) throw err }) },
  { name: 'download null filename', handler: (req, res) => res.download(file('page.html'), null, { dotfiles: 'deny' }) },
  { name: 'download Range', handler: (req, res) => res.download(file('hello.txt')), request: { headers: { range: 'bytes=6-' } } },

  // odd arguments
  { name: 'redirect() without url', handler: (req, res) => res.redirect(), deprecations: ['Provide a url argument', 'Url must be a string'] },
  { name: 'redirect(url, status) reversed', handler: (req, res) => res.redirect('/x', 301), deprecations: ['Url must be a string', 'Status must be a number'] },
  { name: 'redirect(undefined, url)', handler: (req, res) => res.redirect(undefined, '/x'), deprecations: ['Status must be a number'] },
  { name: 'location(number)', handler: (req, res) => res.location(123).end() },
  { name: 'set undefined value', handler: (req, res) => res.set('X-U', undefined).end() },
  { name: 'append without value', handler: (req, res) => res.append('X-U').end() },
  { name: 'links({})', handler: (req, res) => res.links({}).end() },
  { name: 'type("")', handler: (req, res) => res.type('').end() },
  { name: 'cookie Buffer value', handler: (req, res) => res.cookie('b', Buffer.from('hi')).end() },
  { name: 'cookie Date value', handler: (req, res) => res.cookie('d', new Date(0)).end() },
  { name: 'send(Date)', handler: (req, res) => res.send(new Date(0)) },
  { name: 'json toJSON', handler: (req, res) => res.json({ toJSON: () => ({ custom: true }) }) },
  { name: 'sendStatus(418)', handler: (req, res) => res.sendStatus(418) },
  { name: 'send HEAD fresh', handler: (req, res) => res.set('ETag', '"h"').send('x'), request: { method: 'HEAD', headers: { 'if-none-match': '"h"' } } },
  { name: 'send after status 201 fresh', handler: (req, res) => res.status(201).set('ETag', '"h"').send('x'), request: { headers: { 'if-none-match': '"h"' } } },
  { name: 'send If-Modified-Since', handler: (req, res) => res.set('Last-Modified', 'Mon, 01 Jan 2024 00:00:00 GMT').send('x'), request: { headers: { 'if-modified-since': 'Tue, 02 Jan 2024 00:00:00 GMT' } } },
  { name: 'send Cache-Control no-cache not fresh', handler: (req, res) => res.set('ETag', '"h"').send('x'), request: { headers: { 'if-none-match': '"h"', 'cache-control': 'no-cache' } } },
  { name: 'format Accept with params', handler: (req, res) => res.format({ 'text/plain': () => res.send('p'), 'text/html': () => res.send('h') }), request: { headers: { accept: 'text/html;level=1;q=0.9, text/plain;q=0.8' } } },
  { name: 'redirect with query and hash', handler: (req, res) => res.redirect('/s?q=a b&x=<y>#frag ment'), request: { headers: HTML } },
  { name: 'redirect absolute with credentials', handler: (req, res) => res.redirect('http://user:pa ss@example.com/ä'), request: { headers: TEXT } },
  { name: 'download options in filename place with callback', handler: (req, res) => res.download(file('missing.txt'), { root: '/' }, (err: any) => res.status(404).send(err.code)) },
  { name: 'sendFile options null', handler: (req, res) => res.sendFile(file('hello.txt'), null) },
  { name: 'sendFile encoded characters in name', handler: (req, res) => res.sendFile(file('with%20space.txt')) },
  { name: 'sendFile root with dotdot inside', handler: (req, res) => res.sendFile('sub/../hello.txt', { root: FIXTURES }) },

  // res.headersSent / res.locals / res.app / res.req
  { name: 'headersSent before and after', handler: (req, res) => { const before = res.headersSent; res.write('a'); res.end(String(before) + String(res.headersSent)) } },
  { name: 'locals fresh per request', handler: (req, res) => res.json({ locals: res.locals, proto: Object.getPrototypeOf(res.locals) === null }) },
  { name: 'app and req links', handler: (req, res) => res.json({ app: res.app === req.app, req: res.req === req, res: req.res === res }) },
  { name: 'end(data)', handler: (req, res) => res.end('raw') },

  // res.send reads headers straight from Node's store only while getHeader is Node's own
  { name: 'send with an empty Transfer-Encoding still sets Content-Length', handler: (req, res) => res.set('Transfer-Encoding', '').send('body'), request: { raw: true } },
  { name: 'send with ETag and Content-Type preset', handler: (req, res) => res.set('ETag', '"mine"').type('text').send('body') },
  { name: 'json with Content-Type preset', handler: (req, res) => res.type('application/vnd.x+json').json({ a: 1 }) },
  { name: 'send through a getHeader wrapper sees the names Express asks for', handler: (req, res) => { recordAsked(res); res.send('body') } },
  { name: 'json through a getHeader wrapper sees the names Express asks for', handler: (req, res) => { recordAsked(res); res.json({ a: 1 }) } },
  { name: 'send a Buffer through a getHeader wrapper sees the names Express asks for', handler: (req, res) => { recordAsked(res); res.send(Buffer.from('b')) } },
  { name: 'jsonp through a getHeader wrapper sees the names Express asks for', handler: (req, res) => { recordAsked(res); res.jsonp({ a: 1 }) } },
  { name: 'redirect through a getHeader wrapper sees the names Express asks for', handler: (req, res) => { recordAsked(res); res.redirect('/there') } },
  { name: 'links through a getHeader wrapper sees the names Express asks for', handler: (req, res) => { recordAsked(res); res.links({ next: '/n' }).end() } },
  // what a middleware's own res.end is called with (Express: a Buffer wherever it made one, and the encoding it passes)
  { name: 'send through a res.end wrapper: a string with an ETag', handler: (req, res) => { recordEnd(res); res.send('Hello') } },
  { name: 'send through a res.end wrapper: a string, etag off', settings: { etag: false }, handler: (req, res) => { recordEnd(res); res.send('Hello') } },
  { name: 'send through a res.end wrapper: 1000 characters, etag off', settings: { etag: false }, handler: (req, res) => { recordEnd(res); res.send('x'.repeat(1000)) } },
  { name: 'send through a res.end wrapper: a non-ASCII string', handler: (req, res) => { recordEnd(res); res.send('h\u00e9llo \u2713') } },
  { name: 'send through a res.end wrapper: json', handler: (req, res) => { recordEnd(res); res.json({ a: 1 }) } },
  { name: 'send through a res.end wrapper: a Buffer', handler: (req, res) => { recordEnd(res); res.send(Buffer.from('bytes')) } },
  { name: 'send through a res.end wrapper: a Uint8Array', handler: (req, res) => { recordEnd(res); res.send(new Uint8Array([65, 66])) } },
  { name: 'send through a res.end wrapper: a Uint8Array, etag off', settings: { etag: false }, handler: (req, res) => { recordEnd(res); res.send(new Uint8Array([65, 66])) } },
  { name: 'send through a res.end wrapper: null', handler: (req, res) => { recordEnd(res); res.send(null) } },
  { name: 'send through a res.end wrapper: null, etag off', settings: { etag: false }, handler: (req, res) => { recordEnd(res); res.send(null) } },
  { name: 'send through a res.end wrapper: no body', handler: (req, res) => { recordEnd(res); res.send() } },
  { name: 'send through a res.end wrapper: 204', handler: (req, res) => { recordEnd(res); res.status(204).send('gone') } },
  { name: 'send through a res.end wrapper: 204, etag off', settings: { etag: false }, handler: (req, res) => { recordEnd(res); res.status(204).send('gone') } },
  { name: 'send through a res.end wrapper: a fresh request', request: { headers: { 'if-none-match': '*' } }, handler: (req, res) => { recordEnd(res); res.send('Hello') } },
  { name: 'send through a res.end wrapper: HEAD', request: { method: 'HEAD' }, handler: (req, res) => { recordEnd(res); res.send('Hello') } },
  { name: 'send through a res.end wrapper: sendStatus', handler: (req, res) => { recordEnd(res); res.sendStatus(404) } },
  { name: 'send through a res.end wrapper: a user etag function', settings: { etag: (body: Buffer) => `"${body.length}"` }, handler: (req, res) => { recordEnd(res); res.send('Hello') } },
  // a wrapped writeHead runs inside end(), after Node noted the body's length
  { name: 'send through a writeHead wrapper that sets a Content-Disposition', handler: (req, res) => { dispositionInWriteHead(res); res.send('Hello') } },
  { name: 'send a non-ASCII string through a writeHead wrapper that sets a Content-Disposition', handler: (req, res) => { dispositionInWriteHead(res); res.send('h\u00e9llo') } },
  { name: 'send a non-ASCII string through a hasHeader wrapper (Express asks nothing)', handler: (req, res) => { recordHas(res); res.send('h\u00e9llo') } },
  // views other than Buffers, as Express hands them on
  { name: 'send a Uint16Array (copied element by element with an ETag)', handler: (req, res) => res.send(new Uint16Array([0x4142, 0x4344])) },
  { name: 'send a Uint16Array, etag off (Node refuses it)', settings: { etag: false }, handler: (req, res) => res.send(new Uint16Array([0x4142, 0x4344])) },
  { name: 'send a DataView (no length: no bytes)', handler: (req, res) => res.send(new DataView(new Uint8Array([65, 66, 67]).buffer)) },
  { name: 'send a Uint8Array of 1000 elements, etag off', settings: { etag: false }, handler: (req, res) => res.send(new Uint8Array(1000).fill(66)) },
  // bodies Express passes on to Buffer, which refuses them with its own error
  { name: 'send a function', handler: (req, res) => res.send(function named() {}) },
  { name: 'send a function, etag off', settings: { etag: false }, handler: (req, res) => res.send(function named() {}) },
  { name: 'send a symbol', handler: (req, res) => res.send(Symbol('s')) },
  { name: 'send a symbol, etag off', settings: { etag: false }, handler: (req, res) => res.send(Symbol('s')) },
  { name: 'send a bigint, etag off', settings: { etag: false }, handler: (req, res) => res.send(10n) },
  // names that are not strings: the TypeError Express's own code runs into, word for word
  { name: 'set with an undefined name', handler: (req, res) => res.set(undefined, 'x').send('no') },
  { name: 'set with a number as name', handler: (req, res) => res.set(12, 'x').send('no') },
  { name: 'set with a symbol as name', handler: (req, res) => res.set(Symbol('s'), 'x').send('no') },
  { name: 'set with a Buffer as name', handler: (req, res) => res.set(Buffer.from('Content-Type'), 'x').send('no') },
  { name: 'type of a number', handler: (req, res) => res.type(12).send('no') },
  { name: 'type of null', handler: (req, res) => res.type(null).send('no') },
  { name: 'type of an object', handler: (req, res) => res.type({}).send('no') },
  { name: 'type of an array (arrays have indexOf)', handler: (req, res) => res.type(['json']).send('yes') },
  // the options object sendFile and download hand to send, as Express hands it
  { name: 'sendFile with a string for options (Express sets etag on it: a TypeError)', handler: (req, res) => res.sendFile(file('hello.txt'), 'oops') },
  { name: 'sendFile sets etag on the options object given', handler: (req, res) => { const o: any = { maxAge: 1000 }; res.sendFile(file('hello.txt'), o, () => res.end()); res.setHeader('X-Etag-Option', String(o.etag)) } },
  { name: 'sendFile headers added to the options after the call', handler: (req, res) => { const o: any = { headers: { 'X-A': '1' } }; res.sendFile(file('hello.txt'), o); o.headers['X-B'] = '2' } },
  { name: 'download with inherited options', handler: (req, res) => res.download(file('hello.txt'), 'h.txt', Object.create({ maxAge: 5000, headers: { 'X-Inherited': 'yes' } })) },
  { name: 'download with non-enumerable options', handler: (req, res) => res.download(file('hello.txt'), 'h.txt', Object.defineProperty({}, 'maxAge', { value: 7000 })) },
  { name: 'download with a string for options (Object.create refuses it)', handler: (req, res) => res.download(file('hello.txt'), 'h.txt', 'oops') },
  { name: 'download with null for filename and options', handler: (req, res) => res.download(file('hello.txt'), null, { maxAge: 3000 }) },
  { name: 'format with a handler that is not a function', request: { headers: { accept: 'application/json' } }, handler: (req, res) => res.format({ json: 'nope' }) },
  { name: 'format with a default that is not a function', request: { headers: { accept: 'image/png' } }, handler: (req, res) => res.format({ json: () => res.send('no'), default: 1 }) },
]

describe('response: switchyard vs express@5', () => {
  const warned = deprecationsIn(cases.flatMap((c) => c.deprecations ?? []))
  beforeAll(() => {
    // Cookie expiry dates are computed from Date.now(): freeze it for both.
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 5, 15, 12, 0, 0, 250))
  })
  afterAll(() => {
    vi.restoreAllMocks()
  })

  it('covers at least 100 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(100)
  })

  for (const c of cases) {
    it(c.name, async () => {
      const build = (app: any): void => {
        for (const [name, value] of Object.entries(c.settings ?? {})) app.set(name, value)
        c.setup?.(app)
        app.all('/t', c.handler)
        app.use(notFound)
        app.use(reportErrors)
      }
      const req: RawRequest = { method: 'GET', path: '/t', ...c.request }
      const before = warned.length
      const { express, switchyard } = await both(build, req)
      expect(switchyard).toEqual(express)
      // (each case's handler is a call site of its own: depd warns in this test)
      const expected = (c.deprecations ?? []).flatMap((m) => [`express express: ${m}`, `switchyard express: ${m}`])
      expect(warned.slice(before).sort()).toEqual(expected.sort())
    })
  }
})

// Express's res.send, json, jsonp, sendStatus, redirect, location, append,
// links, attachment and format, and req.fresh, read and write headers through
// res.get, res.set, res.type, res.status, res.vary and res.format. A
// middleware that wraps one of them (instrumentation, a header policy) sees
// those calls; Switchyard must make the same ones, with the same arguments,
// in the same order, nested the same way.

/** Wrap `names` on `target`, noting each call (name, arguments, depth in other noted calls) in `log`. */
function spy(target: any, names: string[], log: string[]): void {
  let depth = 0
  for (const name of names) {
    const original = target[name]
    target[name] = function (this: any, ...args: any[]) {
      const shown = args.map((a) => typeof a === 'function' ? 'fn' : Buffer.isBuffer(a) ? 'Buffer' : typeof a === 'object' && a !== null ? Object.keys(a).join('|') : JSON.stringify(a))
      log.push('  '.repeat(depth) + name + '(' + shown.join(', ') + ')')
      depth++
      try {
        return original.apply(this, args)
      } finally {
        depth--
      }
    }
  }
}

const EXPRESS_LEVEL = ['get', 'set', 'type', 'status', 'vary', 'format', 'location', 'append', 'json', 'send']
const WITH_NODE = [...EXPRESS_LEVEL, 'setHeader', 'getHeader', 'removeHeader']

interface CallsCase {
  name: string
  handler: Handler
  spied?: string[]
  on?: 'res' | 'app.response'
  request?: Partial<RawRequest>
  settings?: Record<string, unknown>
}

const callCases: CallsCase[] = [
  { name: 'send of a string', handler: (req, res) => res.send('hi') },
  { name: 'send of a string with a type set', handler: (req, res) => res.type('text').send('hi') },
  { name: 'send of a string with an empty Content-Type', handler: (req, res) => { res.setHeader('Content-Type', ''); res.send('hi') } },
  { name: 'send of a Buffer', handler: (req, res) => res.send(Buffer.from('hi')) },
  { name: 'send of an object (through json)', handler: (req, res) => res.send({ a: 1 }) },
  { name: 'send of nothing (Express still asks for the ETag)', handler: (req, res) => res.send() },
  { name: 'send with Transfer-Encoding set', handler: (req, res) => res.set('Transfer-Encoding', 'chunked').send('hi') },
  { name: 'send with a 205', handler: (req, res) => res.status(205).send('gone') },
  { name: 'send to a fresh request (status(304))', handler: (req, res) => res.send('hi'), request: { headers: { 'if-none-match': 'W/"2-witfkXg0JglCjW9RssWvTAveakI"' } } },
  { name: 'send to a request with If-Modified-Since (req.fresh reads through res.get)', handler: (req, res) => res.set('Last-Modified', 'Thu, 01 Jan 2015 00:00:00 GMT').send('hi'), request: { headers: { 'if-modified-since': 'Thu, 01 Jan 2015 00:00:00 GMT' } } },
  { name: 'send of a function (asks for the ETag before Buffer refuses it)', handler: (req, res) => res.send(() => 1) },
  { name: 'json', handler: (req, res) => res.json({ a: [1, 2] }) },
  { name: 'json with a type set', handler: (req, res) => res.type('text').json(1) },
  { name: 'jsonp with a callback', handler: (req, res) => res.jsonp({ a: 1 }), request: { path: '/t?callback=cb' } },
  { name: 'jsonp without one', handler: (req, res) => res.jsonp([1]) },
  { name: 'sendStatus', handler: (req, res) => res.sendStatus(404) },
  { name: 'redirect, text wanted', handler: (req, res) => res.redirect('/next'), request: { headers: TEXT } },
  { name: 'redirect, html wanted', handler: (req, res) => res.redirect(301, '/a?b=<c>'), request: { headers: HTML } },
  { name: 'redirect, neither wanted', handler: (req, res) => res.redirect('/j'), request: { headers: JSON_ACCEPT } },
  { name: 'redirect to HEAD', handler: (req, res) => res.redirect('/h'), request: { method: 'HEAD', headers: TEXT } },
  { name: 'redirect with only format spied', handler: (req, res) => res.redirect('/f'), spied: ['format'], request: { headers: HTML } },
  { name: 'redirect with only vary spied', handler: (req, res) => res.redirect('/v'), spied: ['vary'], request: { headers: TEXT } },
  { name: 'location', handler: (req, res) => res.location('/a b').end() },
  { name: 'append and cookie', handler: (req, res) => res.append('X-A', '1').cookie('c', 'v').end() },
  { name: 'links', handler: (req, res) => res.links({ next: '/n' }).links({ last: '/l' }).end() },
  { name: 'attachment', handler: (req, res) => res.attachment('a.pdf').end() },
  { name: 'format (vary)', handler: (req, res) => res.format({ json: () => res.json(1), html: () => res.send('h') }), request: { headers: JSON_ACCEPT } },
  { name: 'render\'s send', handler: (req, res) => res.render('user', { name: 'Ann' }), settings: { views: join(FIXTURES, 'views'), 'view engine': 'ejs' } },
  { name: 'methods wrapped on app.response', handler: (req, res) => res.status(201).json({ a: 1 }), on: 'app.response' },
  { name: 'Node\'s methods wrapped too', handler: (req, res) => res.send('hi'), spied: WITH_NODE }
]

describe('response: the calls Express makes through the response\'s own methods', () => {
  for (const c of callCases) {
    it(c.name, async () => {
      const logs: string[][] = []
      const build = (app: any): void => {
        const log: string[] = []
        logs.push(log)
        for (const [name, value] of Object.entries(c.settings ?? {})) app.set(name, value)
        if (c.on === 'app.response') spy(app.response, c.spied ?? EXPRESS_LEVEL, log)
        else app.use((req: any, res: any, next: any) => { spy(res, c.spied ?? EXPRESS_LEVEL, log); next() })
        app.all('/t', c.handler)
        app.use(reportErrors)
      }
      const answers = await bothWith(build, (port) => request(port, { method: 'GET', path: '/t', ...c.request }))
      expect(normalise(answers.switchyard)).toEqual(normalise(answers.express))
      // bothWith builds the switchyard app first
      expect(logs[1].length).toBeGreaterThan(0)
      expect(logs[0]).toEqual(logs[1])
    })
  }

  // what a wrapper does with the calls reaches the client
  const policies: Array<{ name: string, build: (app: any) => void, request?: Partial<RawRequest> }> = [
    {
      name: 'a res.set that upper-cases Content-Type values',
      build: (app) => {
        app.use((req: any, res: any, next: any) => {
          const set = res.set
          res.set = function (this: any, field: any, value: any) {
            return set.call(this, field, field === 'Content-Type' && typeof value === 'string' ? value.toUpperCase() : value)
          }
          next()
        })
        app.get('/t', (req: any, res: any) => res.send('hi'))
      }
    },
    {
      name: 'a res.get that hides the ETag (send makes its own; the request is never fresh)',
      build: (app) => {
        app.use((req: any, res: any, next: any) => {
          const get = res.get
          res.get = function (this: any, field: string) { return field === 'ETag' ? undefined : get.call(this, field) }
          next()
        })
        app.get('/t', (req: any, res: any) => res.set('ETag', '"mine"').send('hi'))
      },
      request: { headers: { 'if-none-match': '"mine"' } }
    },
    {
      name: 'a res.status on app.response that refuses 304',
      build: (app) => {
        const status = app.response.status
        app.response.status = function (this: any, code: number) { return status.call(this, code === 304 ? 200 : code) }
        app.get('/t', (req: any, res: any) => res.send('hi'))
      },
      request: { headers: { 'if-none-match': 'W/"2-witfkXg0JglCjW9RssWvTAveakI"' } }
    },
    {
      name: 'a res.format that always picks html (redirect goes through it)',
      build: (app) => {
        app.use((req: any, res: any, next: any) => {
          res.format = function (this: any, handlers: any) { this.set('Content-Type', 'text/html'); handlers.html(req, this, next); return this }
          next()
        })
        app.get('/t', (req: any, res: any) => res.redirect('/x'))
      },
      request: { headers: TEXT }
    },
    {
      name: 'an etag function giving a number: stored as a string through res.set',
      build: (app) => {
        app.set('etag', () => 12345)
        app.get('/t', (req: any, res: any) => {
          const end = res.end
          res.end = function (this: any, ...args: any[]) {
            this.setHeader('X-ETag-Type', typeof this.getHeader('ETag'))
            return end.apply(this, args)
          }
          res.send('hi')
        })
      }
    }
  ]
  for (const p of policies) {
    it(p.name, async () => {
      const { express, switchyard } = await both(p.build, { method: 'GET', path: '/t', ...p.request })
      expect(switchyard).toEqual(express)
    })
  }
})

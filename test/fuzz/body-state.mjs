// The body-parser fuzzer: random bodies (JSON, forms, text, bytes; valid,
// malformed, nested, flooded, in several charsets, gzip/deflate/br or
// corrupt encodings) with random Content-Type headers, through a parser
// made with random options (json, urlencoded, text, raw: limit, inflate,
// strict, type, extended, parameterLimit, depth, defaultCharset,
// charsetSentinel). The route answers with req.body (and its prototype) or
// the error the parser passed on (status, type, expose, message, charset,
// limit, length); switchyard/body-parser and body-parser@2 must answer the
// same.
//
//   npm run fuzz:body -- --seed N --cases M
//
// The bounded run in `npm test` is test/fuzz/body-state.test.ts.
import http from 'node:http'
import zlib from 'node:zlib'
import { createRequire } from 'node:module'
import { caseFuzzerMain, compareCases, rawExchange } from './state-support.mjs'

const require = createRequire(import.meta.url)

const JSON_BODIES = ['{"a":1}', '[1,2]', '"str"', '1', 'true', 'null', ' {"a":1} ', '{"a":', '{bad}', '', '{"__proto__":{"x":1}}', '{"a":"caf\u00e9"}', '\ufeff{"a":1}', '#x', '{"deep":' + '['.repeat(50) + ']'.repeat(50) + '}', '{"a":1}garbage']
const FORM_BODIES = ['a=1', 'a=1&a=2', 'a[b]=c', 'a[b][c][d][e][f][g]=h', 'a[]=1&a[]=2', 'a[0]=x&a[30]=y', 'x=%zz', '__proto__[p]=1', 'utf8=%E2%9C%93&n=%E9', 'utf8=%26%2310003%3B&n=%E9', 'k=' + 'v'.repeat(200), 'a=1&'.repeat(40), '', '=x&y', 'a+b=c+d', 'a=%F0%9F%98%80', '%5Bx%5D=1']
const TEXT_BODIES = ['hello', 'caf\u00e9', '', '\u00ff\u00fe', 'x'.repeat(3000)]
const TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json; charset=bogus', 'application/vnd.api+json', 'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=iso-8859-1', 'application/x-www-form-urlencoded; charset=utf-16', 'text/plain', 'text/plain; charset=latin1', 'text/html', 'application/octet-stream', 'image/png', undefined, 'application/json; charset="utf-8"', 'multipart/form-data']
const MATCHING = {
  json: ['application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1'],
  urlencoded: ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8', 'application/x-www-form-urlencoded; charset=iso-8859-1'],
  text: ['text/plain', 'text/plain; charset=utf-8', 'text/plain; charset=latin1'],
  raw: ['application/octet-stream']
}
const ENCODINGS = [undefined, undefined, undefined, 'gzip', 'deflate', 'br', 'identity', 'compress', 'gzip, gzip', 'GZIP']

export function generate(rng) {
  const kind = rng.pick(['json', 'urlencoded', 'text', 'raw'])
  const options = {}
  if (rng.next() < 0.3) options.limit = rng.pick([10, '20b', 100, '1kb', '2kb'])
  if (rng.next() < 0.2) options.inflate = false
  if (rng.next() < 0.3) options.type = rng.pick(['*/*', 'text/*', 'application/*', ['application/json', 'text/plain'], '+json'])
  if (kind === 'json' && rng.next() < 0.3) options.strict = false
  if (kind === 'urlencoded') {
    if (rng.next() < 0.5) options.extended = rng.pick([true, false])
    if (rng.next() < 0.2) options.parameterLimit = rng.pick([1, 5, 20])
    if (rng.next() < 0.2) options.depth = rng.pick([0, 1, 3])
    if (rng.next() < 0.2) options.charsetSentinel = true
    if (rng.next() < 0.2) options.defaultCharset = rng.pick(['utf-8', 'iso-8859-1'])
  }
  if (kind === 'text' && rng.next() < 0.3) options.defaultCharset = rng.pick(['utf-8', 'iso-8859-1', 'utf-16le'])
  const text = rng.pick(rng.next() < 0.5 ? (kind === 'urlencoded' ? FORM_BODIES : kind === 'json' ? JSON_BODIES : TEXT_BODIES) : [...JSON_BODIES, ...FORM_BODIES])
  const charset = rng.pick(['utf8', 'utf8', 'latin1', 'utf16le'])
  const encoding = rng.pick(ENCODINGS)
  // mostly a type the parser reads, so that most bodies reach it
  const type = rng.next() < 0.6 ? rng.pick(MATCHING[kind]) : rng.pick(TYPES)
  const corrupt = encoding && rng.next() < 0.15
  const method = rng.pick(['POST', 'POST', 'PUT', 'GET', 'DELETE'])
  const chunked = rng.next() < 0.2
  return { kind, options, text, charset, encoding, type, corrupt, method, chunked }
}

function payload(c) {
  let body = Buffer.from(c.text, c.charset)
  const enc = c.encoding ? c.encoding.toLowerCase() : undefined
  if (enc === 'gzip') body = zlib.gzipSync(body)
  else if (enc === 'deflate') body = zlib.deflateSync(body)
  else if (enc === 'br') body = zlib.brotliCompressSync(body)
  if (c.corrupt) body = Buffer.concat([body.subarray(0, Math.max(1, body.length >> 1)), Buffer.from('junk')])
  return body
}

export function build(parsers, c) {
  const app = http.createServer()
  const parse = parsers[c.kind]({ ...c.options })
  const answer = (res, status, value) => {
    const text = JSON.stringify(value)
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) })
    res.end(text)
  }
  app.on('request', (req, res) => {
    parse(req, res, (err) => {
      if (err) {
        answer(res, 500, { error: { status: err.status, statusCode: err.statusCode, type: err.type, expose: err.expose, message: err.message, charset: err.charset, limit: err.limit, length: err.length, received: err.received, expected: err.expected, body: err.body } })
        return
      }
      const body = req.body
      const proto = body && typeof body === 'object' ? (Object.getPrototypeOf(body) === null ? 'null' : Array.isArray(body) ? 'array' : Object.getPrototypeOf(body) === Object.prototype ? 'object' : 'other') : typeof body
      answer(res, 200, { body: Buffer.isBuffer(body) ? { buffer: body.toString('hex') } : body, proto, hasBody: 'body' in req })
    })
  })
  return app
}

/** Send the case's body (with Content-Length, or chunked); the answer's status and body ('no answer' when none). */
async function exchange(port, c) {
  const body = payload(c)
  const head = [`${c.method} / HTTP/1.1`, 'Host: x', 'Connection: close']
  if (c.type !== undefined) head.push('Content-Type: ' + c.type)
  if (c.encoding !== undefined) head.push('Content-Encoding: ' + c.encoding)
  let data
  if (c.chunked) {
    head.push('Transfer-Encoding: chunked')
    data = body.length ? Buffer.concat([Buffer.from(body.length.toString(16) + '\r\n'), body, Buffer.from('\r\n0\r\n\r\n')]) : Buffer.from('0\r\n\r\n')
  } else {
    head.push('Content-Length: ' + body.length)
    data = body
  }
  const raw = await rawExchange(port, Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n'), data]))
  return raw === '' ? 'no answer' : raw.slice(9, 12) + ' ' + raw.slice(raw.indexOf('\r\n\r\n') + 4)
}

export async function runBodyFuzz({ seed = 1, cases = 300, switchyard = require('../../dist/body-parser.cjs'), oracle = require('body-parser') } = {}) {
  const { counts, differences } = await compareCases({
    seed, cases, generate, build, ours: switchyard, oracle, exchange,
    // parsed, or the error's type (its status when it has none)
    classify: (answer) => (answer.startsWith('200') ? 'parsed' : (answer.match(/"type":"([^"]+)"/) ?? [, answer.slice(0, 3)])[1])
  })
  return { seed, cases, outcomes: counts, differences }
}

if (import.meta.url === `file://${process.argv[1]}`) await caseFuzzerMain('body-parser fuzz', runBodyFuzz, 'outcomes')

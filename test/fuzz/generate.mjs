// Seeded generator of random and malformed HTTP/1.1 requests, as raw bytes.
// The request framing (Content-Length / chunked body) is always consistent with
// the bytes sent, so no request can leave a server waiting for more input:
// every request is either answered or makes the server close the connection.
import zlib from 'node:zlib'

/** mulberry32: a small, fast, seeded PRNG. */
export function prng(seed) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n) => Math.floor(next() * n)
  const pick = (list) => list[int(list.length)]
  const chance = (p) => next() < p
  return { next, int, pick, chance }
}

const ROUTES = [
  '/', '/users/42', '/users/tobi', '/users/a%20b', '/users/42/books/7', '/users/42/books/7.json', '/users/%E2%98%83/books/x.y.z',
  '/files/a', '/files/a/b/c.txt', '/files/%2e%2e/x', '/files', '/echo', '/echo/a/b', '/cookies', '/set-cookie', '/redirect',
  '/accepts', '/range', '/sync-error', '/async-error', '/jsonp', '/download', '/sendfile/todo.txt', '/sendfile/nested/index.html',
  '/sendfile/../secret.txt', '/sendfile/.hidden', '/api/v1/items/box', '/api/v1/items/box/lid', '/api/v2/items/forbidden',
  '/api/v1/nested/3/leaf', '/api/v1/nested/3', '/sub', '/sub/', '/sub/p/1', '/sub/p/%zz', '/static/todo.txt', '/static/',
  '/static/nested', '/static/nested/', '/static/users/tobi.txt', '/static/caf%C3%A9.txt', '/static/100%25%20sure.txt',
  '/static/snow%20%E2%98%83.txt', '/static/%2e%2e/secret.txt', '/static/..%2fsecret.txt', '/static/a%20dir/', '/static/.env',
  '/strict-static/todo.txt', '/strict-static/missing', '/strict-static/.git/config', '/strict-static/nested',
  '/body/json', '/body/form', '/body/text', '/body/raw', '/body/all', '/missing', '/USERS/42', '/users/42/', '//users//42'
]

const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'QUERY', 'PROPFIND', 'TRACE', 'M-SEARCH', 'PURGE']
const ODD_METHODS = ['get', 'G\x01T', 'GET\t', 'GE T', '', 'CONNECT', 'X'.repeat(40), 'POST\x00']
const SEGMENT_BITS = ['a', 'b', 'tobi', '42', '.', '..', '%', '%%', '%2', '%2f', '%2F', '%5c', '%00', '%zz', '%E0%A4%A', '%C0%AE', '%C0%AF', '%c3%a9',
  '%F0%9F%98%80', '%FF', '~', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', ':', '@', '[', ']', '{', '}', '|', '^', '`', '\\', '%25', '%252e%252e']
const QUERY_BITS = ['a=1', 'a[]=1', 'a[]=2', 'a[b]=c', 'a[b][c][d][e][f][g]=1', 'a[0]=x', 'a[99999]=y', 'a[=1', 'a]=1', '__proto__[x]=1',
  'constructor[prototype][y]=1', 'toString=1', 'hasOwnProperty=x', 'a=%', 'a=%zz', '%=1', '&&&', '=', 'a==b', 'a=1;b=2', 'a.b=1', 'x=%C3%A9',
  'to=//evil.com', 'to=http://a.com\\@b.com', 'to=javascript:alert(1)', 'to=%0d%0aSet-Cookie:x', 'name=%3B', 'name=a%20b', 'value=%0d%0a',
  'domain=x.com%0d', 'path=/%3B', 'signed=1', 'name=ok&value=%E2%98%83']
const HEADER_NAMES = ['Accept', 'Accept-Encoding', 'Accept-Language', 'Cookie', 'X-Forwarded-For', 'X-Forwarded-Proto', 'X-Forwarded-Host',
  'Host', 'If-None-Match', 'If-Modified-Since', 'Range', 'If-Range', 'Referer', 'User-Agent', 'X-Requested-With', 'Origin', 'Forwarded',
  'X-Custom', 'Content-Language', 'Authorization', 'Cache-Control', 'Pragma', 'Te', 'Upgrade', 'Expect']
const HEADER_VALUES = ['', ' ', '*', 'text/html', 'application/json', 'text/*;q=0.5, */*;q=0.1', 'bogus', '1.2.3.4', '1.2.3.4, 5.6.7.8',
  'unknown, ::1', '::ffff:10.0.0.1', '999.1.1.1', 'https', 'http, https', 'HTTPS', 'example.com', 'a.b.example.com:8080', '[::1]:80',
  'evil.com, good.com', 'bytes=0-10', 'bytes=5-', 'bytes=-5', 'bytes=0-1,2-3', 'bytes=9-1', 'bytes=x', 'items=0-1', '"abc"', 'W/"x", "y"',
  'Thu, 01 Jan 1970 00:00:00 GMT', 'not a date', 'a=b; c=d', 's:x.y', 'j:{"a":1}', 'a=%E0%A4%A', 'XMLHttpRequest', 'gzip, deflate, br',
  'en;q=0.9, fr', 'caf\xe9', '\x7f', 'x'.repeat(2000), '100-continue', 'websocket', 'trailers']
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/json; charset=latin1',
  'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=iso-8859-1', 'application/x-www-form-urlencoded; charset=koi8-r',
  'text/plain', 'text/plain; charset=iso-8859-1', 'text/plain; charset=bogus', 'text/html', 'application/octet-stream', 'application/vnd.api+json',
  'multipart/form-data; boundary=x', 'application/json;;', 'application/json; charset', '', '/', 'application/', 'application/json, text/plain']

function randomBytes(r, n, printable) {
  const b = Buffer.alloc(n)
  for (let i = 0; i < n; i++) {
    let c = printable ? 0x20 + r.int(0x5f) : r.int(256)
    if (c === 0x0d || c === 0x0a) c = 0x20
    b[i] = c
  }
  return b
}

function segment(r) {
  const n = 1 + r.int(3)
  let s = ''
  for (let i = 0; i < n; i++) s += r.pick(SEGMENT_BITS)
  return s
}

function randomPath(r, rawByte) {
  const roll = r.next()
  let p
  if (roll < 0.45) p = r.pick(ROUTES)
  else if (roll < 0.8) {
    p = r.pick(ROUTES)
    const parts = p.split('/')
    const at = 1 + r.int(Math.max(1, parts.length - 1))
    if (r.chance(0.5)) parts[at] = segment(r)
    else parts.splice(at, 0, segment(r))
    p = parts.join('/')
  } else if (roll < 0.9) {
    const parts = []
    const n = 1 + r.int(8)
    for (let i = 0; i < n; i++) parts.push(segment(r))
    p = '/' + parts.join(r.chance(0.1) ? '//' : '/')
  } else if (roll < 0.96) {
    // long paths: up to ~12 KB, below and around Node's header size limit
    const unit = r.pick(['a/', '%2e%2e/', '..%2f', 'x', '%', '/', '-:'])
    p = r.pick(['/files/', '/users/', '/static/', '/', '/api/v1/items/']) + unit.repeat(1 + r.int(12000 / unit.length))
  } else {
    p = r.pick(['*', 'http://example.com/users/1', 'http://a.com\\@b.com/', '//evil.com/x', 'users/42', '', ' /', '/?', '/#frag', '/%00'])
  }
  if (r.chance(0.35)) {
    const n = 1 + r.int(r.chance(0.1) ? 200 : 4)
    const q = []
    for (let i = 0; i < n; i++) q.push(r.pick(QUERY_BITS))
    p += '?' + q.join('&')
  }
  // raw bytes that are not allowed in a request target
  if (rawByte) {
    const at = r.int(p.length + 1)
    p = p.slice(0, at) + r.pick(['\x00', '\x7f', '\xff', '\t', ' ', '"', '<', '\x1b', 'é']) + p.slice(at)
  }
  return p
}

function jsonBody(r) {
  const values = ['{}', '[]', '{"a":1}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"y":1}}}', 'true', 'null', '"str"', '12',
    '{"a":', '{a:1}', '[1,2,', '\ufeff{"bom":1}', ' \n{"ws":1} ', '{"deep":' + '['.repeat(200) + ']'.repeat(200) + '}', '{"big":"' + 'x'.repeat(3000) + '"}',
    '{"u":"\\u2028\\ud800"}', '', 'nul', '{"a":1}garbage', '#', '\x00']
  return Buffer.from(r.pick(values), 'utf8')
}

function formBody(r) {
  const n = r.chance(0.1) ? 30 + r.int(3000) : 1 + r.int(6)
  const parts = []
  for (let i = 0; i < n; i++) parts.push(r.chance(0.7) ? r.pick(QUERY_BITS) : segment(r) + '=' + segment(r))
  if (r.chance(0.05)) return Buffer.from('a' + '[b]'.repeat(20 + r.int(40)) + '=1')
  if (r.chance(0.05)) return Buffer.from('&'.repeat(1 + r.int(5000)))
  return Buffer.from(parts.join('&'))
}

function body(r) {
  const kind = r.int(4)
  if (kind === 0) return jsonBody(r)
  if (kind === 1) return formBody(r)
  if (kind === 2) return r.chance(0.5) ? Buffer.from('hello ' + segment(r)) : randomBytes(r, r.int(6000), true)
  return randomBytes(r, r.int(r.chance(0.1) ? 12000 : 300), false)
}

function encode(r, buf) {
  const enc = r.pick(['identity', 'gzip', 'deflate', 'br', 'gzip-corrupt', 'bogus', 'GZIP', 'gzip, deflate', 'identity', 'identity'])
  switch (enc) {
    case 'gzip': case 'GZIP': return [enc, zlib.gzipSync(buf)]
    case 'deflate': return [enc, zlib.deflateSync(buf)]
    case 'br': return [enc, zlib.brotliCompressSync(buf)]
    case 'gzip-corrupt': { const z = zlib.gzipSync(buf); z[z.length >> 1] ^= 0xff; return ['gzip', z.subarray(0, Math.max(1, z.length - r.int(8)))] }
    case 'gzip, deflate': return [enc, zlib.deflateSync(zlib.gzipSync(buf))]
    default: return [enc, buf]
  }
}

/** A header block line with a name and value; odd names and duplicates allowed. */
function randomHeader(r, bad) {
  if (bad) return [r.pick(['X-Bad Name', 'X-\x01', 'é', 'X:Colon', '', 'Content-Length ']), 'v']
  return [r.pick(HEADER_NAMES), r.pick(HEADER_VALUES)]
}

/**
 * Generate request number `seq`: returns `{ seq, method, bytes, closes }`.
 * `closes` is true when the request itself asks for the connection to close.
 */
export function generate(r, seq) {
  const lines = []
  // most requests are well-formed; one in seven carries exactly one malformation
  // (most of those make Node's parser answer 400 and close the connection)
  const bad = r.chance(0.14) ? r.int(8) : -1
  let method = bad === 0 ? r.pick(ODD_METHODS) : r.pick(METHODS)
  const target = randomPath(r, bad === 2)
  const wantsBody = method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'QUERY' || r.chance(0.05)
  let reqPath = target
  if (wantsBody && r.chance(0.7)) reqPath = r.pick(['/body/json', '/body/loose', '/body/form', '/body/simple', '/body/text', '/body/raw', '/body/all']) + (r.chance(0.2) ? '?x=1' : '')
  if (wantsBody && method === 'GET') method = 'POST'
  const version = bad === 1 ? r.pick(['HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'HTTP/1', 'http/1.1', 'HTTP/1.1 ', '']) : 'HTTP/1.1'
  lines.push(method + ' ' + reqPath + ' ' + version)
  if (bad !== 3) lines.push('Host: ' + (r.chance(0.05) ? r.pick(['', 'a b', 'x.example.com', '[::1]', 'h:99999', 'caf\xe9.com']) : 'localhost'))
  lines.push('X-Seq: ' + seq)
  const extra = bad === 4 ? 1 + r.int(6) : r.chance(0.4) ? r.int(r.chance(0.05) ? 60 : 6) : 0
  for (let i = 0; i < extra; i++) {
    const [name, value] = randomHeader(r, bad === 4 && i === 0)
    if (name.toLowerCase() === 'expect' || name.toLowerCase() === 'upgrade') continue
    lines.push(name + ': ' + value)
  }
  if (bad === 5) lines.push(r.pick(['X-Fold: a', ' continued', 'NoColonHere', 'X-Tab:\tv', 'X-Nul: a\x00b', 'X-Long: ' + 'y'.repeat(20000)]))
  // Expect: 100-continue only ever opens a batch: on Node 20 a 100 Continue for a
  // pipelined request can land inside the body of the response before it when
  // that response is written in two pieces (as express does), which garbles the
  // oracle's stream; see docs/reliability.md
  const expect = r.chance(0.02)
  if (expect) lines.push('Expect: 100-continue')
  const closes = r.chance(0.03)
  if (closes) lines.push('Connection: close')

  let payload = Buffer.alloc(0)
  let chunked = false
  if (wantsBody) {
    const raw = body(r)
    const ct = r.chance(0.9) ? (reqPath.startsWith('/body/json') || reqPath.startsWith('/body/loose') ? 'application/json' : reqPath.startsWith('/body/form') || reqPath.startsWith('/body/simple') ? 'application/x-www-form-urlencoded' : reqPath.startsWith('/body/text') ? 'text/plain' : r.pick(CONTENT_TYPES)) : r.pick(CONTENT_TYPES)
    if (r.chance(0.2)) lines.push('Content-Type: ' + r.pick(CONTENT_TYPES))
    else lines.push('Content-Type: ' + ct)
    if (r.chance(0.03)) lines.push('Content-Type: ' + r.pick(CONTENT_TYPES))
    const [enc, encoded] = r.chance(0.25) ? encode(r, raw) : ['identity', raw]
    if (enc !== 'identity' || r.chance(0.02)) lines.push('Content-Encoding: ' + enc)
    payload = encoded
    chunked = version === 'HTTP/1.1' && r.chance(0.2)
  }
  // framing last, always consistent with the bytes that follow
  let framing = ''
  let tail = payload
  if (chunked) {
    framing = 'Transfer-Encoding: chunked\r\n'
    const pieces = []
    let at = 0
    while (at < payload.length) {
      const n = Math.min(payload.length - at, 1 + r.int(4096))
      pieces.push(Buffer.from(n.toString(16) + '\r\n'), payload.subarray(at, at + n), Buffer.from('\r\n'))
      at += n
    }
    pieces.push(Buffer.from('0\r\n\r\n'))
    tail = Buffer.concat(pieces)
    if (bad === 6) framing += 'Content-Length: ' + payload.length + '\r\n' // both: rejected by the parser
  } else if (wantsBody) {
    framing = 'Content-Length: ' + payload.length + '\r\n'
    if (bad === 7) framing += 'Content-Length: ' + payload.length + '\r\n'
  }
  const head = lines.join('\r\n') + '\r\n' + framing + '\r\n'
  // a request the parser may reject goes alone: a parse error makes Node drop the
  // connection, and with it any earlier pipelined response not yet flushed
  // (a control character such as DEL in a header value is one such case)
  const alone = bad !== -1 || expect || head.length > 8000 || !reqPath.startsWith('/') || /[\x00-\x08\x0a-\x1f\x7f]/.test(head.replaceAll('\r\n', ''))
  return { seq, method, bytes: Buffer.concat([Buffer.from(head, 'latin1'), tail]), closes, alone }
}

/** A request of pure garbage bytes, ending the header block so nothing waits. */
export function garbage(r, seq) {
  const b = randomBytes(r, 1 + r.int(200), r.chance(0.5))
  return { seq, method: 'GARBAGE', bytes: Buffer.concat([b, Buffer.from('\r\n\r\n')]), closes: true, alone: true }
}

/** Batch `index` of a run: 1-4 requests written to one connection at once (pipelined). */
export function batch(seed, index, firstSeq) {
  const r = prng((seed * 0x9e3779b1) ^ (index * 0x85ebca6b))
  const size = r.chance(0.6) ? 1 : 2 + r.int(3)
  const out = []
  for (let i = 0; i < size; i++) {
    const req = r.chance(0.01) ? garbage(r, firstSeq + i) : generate(r, firstSeq + i)
    if (req.alone && i > 0) break
    out.push(req)
    if (req.closes || req.alone) break
  }
  return out
}

// Helpers for the request tests: a JSON dump of every `req` property and
// method result (the same function runs inside express and switchyard apps),
// and a raw request sender that can repeat headers or omit `Host`.
import http from 'node:http'
import { exchange } from './diff'

/** Mark `undefined` and errors so that JSON keeps them comparable. */
export const UNDEFINED = '<undefined>'

function attempt(fn: () => unknown): unknown {
  try {
    const value = fn()
    return value === undefined ? UNDEFINED : value
  } catch (err) {
    return { throws: `${(err as Error).name}: ${(err as Error).message}` }
  }
}

const PROPERTIES = [
  'baseUrl', 'originalUrl', 'url', 'path', 'method', 'params', 'query', 'body', 'cookies', 'signedCookies',
  'fresh', 'stale', 'host', 'hostname', 'ip', 'ips', 'protocol', 'secure', 'subdomains', 'xhr'
]

const HEADER_NAMES = ['host', 'Host', 'referer', 'Referrer', 'REFERER', 'content-type', 'Set-Cookie', 'x-missing']

/** Every property of `req` and the results of its methods, as plain JSON data. */
export function dumpRequest(req: any, res: any, owner: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const name of PROPERTIES) out[name] = attempt(() => req[name])
  out.queryPrototype = attempt(() => (Object.getPrototypeOf(req.query) === null ? 'null' : 'object'))
  out.route = attempt(() => (req.route ? { path: req.route.path, methods: req.route.methods } : req.route))
  out.appIsOwner = req.app === owner
  out.resLinked = req.res === res
  out.get = Object.fromEntries(HEADER_NAMES.map((n) => [n, attempt(() => req.get(n))]))
  out.headerAlias = attempt(() => req.header('Referrer'))
  out.getErrors = [attempt(() => req.get()), attempt(() => req.get('')), attempt(() => req.get(42)), attempt(() => req.get(null))]
  out.accepts = {
    none: attempt(() => req.accepts()),
    html: attempt(() => req.accepts('html')),
    jsonHtml: attempt(() => req.accepts('json', 'html')),
    array: attempt(() => req.accepts(['text/plain', 'application/json', 'png'])),
    comma: attempt(() => req.accepts('json, html')),
    wildcard: attempt(() => req.accepts('image/*')),
    mime: attempt(() => req.accepts('text/html'))
  }
  out.acceptsEncodings = [attempt(() => req.acceptsEncodings()), attempt(() => req.acceptsEncodings('br', 'gzip')), attempt(() => req.acceptsEncodings(['deflate', 'identity']))]
  out.acceptsCharsets = [attempt(() => req.acceptsCharsets()), attempt(() => req.acceptsCharsets('utf-8', 'iso-8859-1')), attempt(() => req.acceptsCharsets(['utf-16']))]
  out.acceptsLanguages = [attempt(() => req.acceptsLanguages()), attempt(() => req.acceptsLanguages('fr', 'en')), attempt(() => req.acceptsLanguages(['en-US', 'de']))]
  out.is = {
    json: attempt(() => req.is('json')),
    html: attempt(() => req.is('html')),
    appWild: attempt(() => req.is('application/*')),
    any: attempt(() => req.is('*/*')),
    list: attempt(() => req.is('text', 'json')),
    array: attempt(() => req.is(['urlencoded', 'text/*'])),
    full: attempt(() => req.is('application/json')),
    suffix: attempt(() => req.is('+json')),
    none: attempt(() => req.is())
  }
  out.range = [attempt(() => req.range(1000)), attempt(() => req.range(1000, { combine: true })), attempt(() => req.range(50))]
  // arrays from range-parser carry a `type` property JSON would drop
  out.rangeType = attempt(() => { const r = req.range(1000); return r && typeof r === 'object' ? r.type : r })
  return out
}

/** One request as it goes on the wire. */
export interface WireRequest {
  method?: string
  path: string
  headers?: Record<string, string | string[]>
  body?: string
  /** false: send no Host header at all (the request goes out as HTTP/1.0, which may omit it) */
  setHost?: boolean
}

/** Send an HTTP/1.0 request without Host over a raw socket; the server closes after answering. */
async function sendHttp10(port: number, r: WireRequest): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const answer = await exchange(port, `${r.method ?? 'GET'} ${r.path} HTTP/1.0`, r.headers, r.body)
  return { status: answer.status, headers: answer.headers as http.IncomingHttpHeaders, body: Buffer.from(answer.body, 'latin1').toString() }
}

/** The Host header sent when a request names none. */
export const DEFAULT_HOST = 'www.shop.example.com:8080'

/** Send `r` to 127.0.0.1:`port` and resolve with status headers and body text. */
export function send(port: number, r: WireRequest): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  if (r.setHost === false) return sendHttp10(port, r)
  // a fixed Host (unless given) so that answers do not depend on the port
  const given = r.headers !== undefined && Object.keys(r.headers).some((k) => k.toLowerCase() === 'host')
  const headers = given ? r.headers : { Host: DEFAULT_HOST, ...r.headers }
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, method: r.method ?? 'GET', path: r.path, headers,
      agent: false, setHost: false
    }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => { body += c })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(r.body)
  })
}

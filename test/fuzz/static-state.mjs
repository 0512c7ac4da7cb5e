// The static-files fuzzer: fw.static and express.static (serve-static 2)
// made with random options (index, redirect, dotfiles, extensions,
// fallthrough, etag, lastModified, maxAge, immutable, acceptRanges,
// cacheControl, setHeaders), mounted at '/' or '/s', asked random paths
// (encoded, traversing, dotfiles, directories with and without the slash,
// extensionless, odd escapes) with GET, HEAD, POST or OPTIONS and random
// conditional and Range headers. The status, every header but Date and
// X-Powered-By, in order, and the body bytes must be the same.
//
//   npm run fuzz:static -- --seed N --cases M
//
// The bounded run in `npm test` is test/fuzz/static-state.test.ts.
import { createRequire } from 'node:module'
import { caseFuzzerMain, compareCases, rawExchange } from './state-support.mjs'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const ROOT = fileURLToPath(new URL('../fixtures/static/root', import.meta.url))

const PATHS = [
  '/', '/index.html', '/page', '/page.html', '/README', '/style.css', '/nested', '/nested/', '/nested/deep', '/multi/', '/noindex/', '/sub',
  '/a%20dir/', '/a%20dir', '/caf%C3%A9.txt', '/dossier%20%C3%A9/inner.txt', '/snow%20%E2%98%83.txt', '/100%25%20sure.txt', '/100% sure.txt',
  '/with%20space.txt', '/missing.txt', '/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/.hidden', '/.root', '/%2Ehidden',
  '/users', '/empty.txt', '/data.json', '/page.txt?x=1', '//page.html', '/page.html/', '/%00', '/%zz', '/nums.txt', '/todo'
]
const MOUNTS = ['', '', '/s']

export function generate(rng) {
  const options = {}
  if (rng.next() < 0.3) options.index = rng.pick([false, 'page.html', ['default.txt', 'index.txt'], 'index.html'])
  if (rng.next() < 0.3) options.redirect = false
  if (rng.next() < 0.3) options.dotfiles = rng.pick(['allow', 'deny', 'ignore'])
  if (rng.next() < 0.3) options.extensions = rng.pick([['html'], ['txt', 'html'], false])
  if (rng.next() < 0.3) options.fallthrough = false
  if (rng.next() < 0.2) options.etag = false
  if (rng.next() < 0.2) options.lastModified = false
  if (rng.next() < 0.2) options.maxAge = rng.pick([1000, '1d', 0, -5])
  if (rng.next() < 0.15) options.immutable = true
  if (rng.next() < 0.15) options.acceptRanges = false
  if (rng.next() < 0.15) options.cacheControl = false
  const setHeaders = rng.next() < 0.2
  const headers = {}
  if (rng.next() < 0.2) headers['if-none-match'] = rng.pick(['*', 'W/"x"'])
  if (rng.next() < 0.2) headers['if-modified-since'] = rng.pick(['Wed, 01 Jan 2031 00:00:00 GMT', 'Mon, 01 Jan 2001 00:00:00 GMT'])
  if (rng.next() < 0.2) headers.range = rng.pick(['bytes=0-3', 'bytes=-2', 'bytes=5-', 'bytes=100-200', 'bytes=0-1,3-4', 'bytes=x'])
  if (headers.range && rng.next() < 0.3) headers['if-range'] = rng.pick(['W/"x"', 'Wed, 01 Jan 2031 00:00:00 GMT'])
  const mount = rng.pick(MOUNTS)
  const path = (rng.next() < 0.9 ? mount : '') + rng.pick(PATHS)
  return { options, setHeaders, mount, method: rng.pick(['GET', 'GET', 'GET', 'HEAD', 'POST', 'OPTIONS']), path, headers }
}

export function build(lib, c) {
  const app = lib()
  app.set('env', 'production')
  const options = { ...c.options }
  if (c.setHeaders) options.setHeaders = (res, file, stat) => res.setHeader('X-Size', String(stat.size))
  const serve = lib.static(ROOT, options)
  if (c.mount) app.use(c.mount, serve)
  else app.use(serve)
  app.use((req, res) => res.status(404).send('fell through ' + req.url))
  app.use((err, req, res, next) => res.status(err.status ?? 500).send('error ' + err.status + ' ' + (err.code ?? '')))
  return app
}

/** The raw response to one request, but its Date and X-Powered-By headers. */
async function exchange(port, c) {
  const lines = [`${c.method} ${c.path} HTTP/1.1`, 'Host: x', 'Connection: close']
  for (const [k, v] of Object.entries(c.headers)) lines.push(`${k}: ${v}`)
  if (c.method === 'POST') lines.push('Content-Length: 0')
  const raw = await rawExchange(port, lines.join('\r\n') + '\r\n\r\n')
  return raw.replace(/^Date: .*\r\n/m, '').replace(/^X-Powered-By: .*\r\n/m, '')
}

export async function runStaticFuzz({ seed = 1, cases = 300, switchyard = require('../../dist/index.cjs'), express = require('express') } = {}) {
  const { counts, differences } = await compareCases({
    seed, cases, generate, build, ours: switchyard, oracle: express, exchange,
    classify: (answer) => answer.slice(9, 12) || 'none'
  })
  return { seed, cases, statuses: counts, differences }
}

if (import.meta.url === `file://${process.argv[1]}`) await caseFuzzerMain('static fuzz', runStaticFuzz, 'statuses')

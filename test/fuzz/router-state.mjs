// The router-state fuzzer: random trees of routers, sub-apps, middleware,
// routes, error handlers and param triggers, built the same way on
// switchyard and on express@5; every layer records what it sees on req
// (url, baseUrl, originalUrl, path, query, params with their keys and
// prototype, route path, parseurl's cached parse, which app it belongs to and
// whether it has that app's prototypes, res.locals, whether the `next` it got
// is req.next) and how it passes on (next, next('route'),
// next('router'), an error, a throw, a rejected promise, next after a tick,
// next after rewriting req.url (the mount path put back, or a prefix added),
// an answer), the own keys of req and res, and router@2.3's request state
// (the symbols `router.tracing.matchedRoute` and
// `router.tracing.publishedErrors`, with their values). Every other app is served
// behind a wrapper function, so that its requests are swapped rather than
// built with the app's prototypes. Every other pair of apps has no 404 or
// error handler of its own, so that the built-in final handler answers, and
// records what req holds once the response is done (baseUrl, next, params...
// as the routers put them back, which loggers and metrics read on 'finish').
// Each request's answer (the status and the list of records) and that final
// state must be the same from both.
//
//   npm run fuzz:router -- --seed N --apps M [--traced 1]
//
// With --traced 1, the events of router@2.3's express.router.request tracing
// channel (and what each context holds) must be the same too.
//
// The bounded run in `npm test` is test/fuzz/router-state.test.ts.
import dc from 'node:diagnostics_channel'
import http from 'node:http'
import { createRequire } from 'node:module'
import { alternate, cliNumber, listen, random } from './state-support.mjs'

const require = createRequire(import.meta.url)

const PATTERNS = ['/', '/a', '/a/:x', '/:p', '/b/:y/c', '/A', '/a/', /^\/r(\d+)/, ['/m', '/n/:z'], '/a{/:opt}', '/*rest', '/b', '/:p/:q', '/a/b']
export const PATHS = ['/', '/a', '/a/1', '/A/1/', '/b/2/c', '/r5', '/m', '/n/3', '/x/y/z?q=1', '//a', '/a%20b', '/a/%E2%82%AC', '/a/b', '/a/b/c', '/b', '/B/9/C/', '/a/%zz', '/r12/x', '/n/3/4']
export const METHODS = ['GET', 'POST', 'HEAD', 'OPTIONS']

/** A random app tree, up to three mounts deep. */
export function generate(rng, depth = 0) {
  const items = []
  const count = 2 + Math.floor(rng.next() * 4)
  for (let i = 0; i < count; i++) {
    const r = rng.next()
    if (depth < 3 && r < 0.3) {
      const kind = rng.next() < 0.75 ? 'router' : 'app'
      const path = rng.pick(PATTERNS.filter((p) => !(p instanceof RegExp)))
      const options = { mergeParams: rng.next() < 0.5, caseSensitive: rng.next() < 0.2, strict: rng.next() < 0.2 }
      items.push({ kind, path, options, children: generate(rng, depth + 1) })
    } else if (r < 0.55) {
      items.push({ kind: 'use', path: rng.next() < 0.5 ? undefined : rng.pick(PATTERNS), act: rng.pick(['next', 'next', 'next', 'router', 'error', 'throw', 'later', 'reject', 'unmount', 'rewrite']) })
    } else if (r < 0.85) {
      items.push({ kind: 'route', method: rng.pick(['get', 'all', 'post']), path: rng.pick(PATTERNS), acts: [rng.pick(['next', 'route', 'end', 'next', 'async']), rng.pick(['end', 'next', 'async'])] })
    } else if (r < 0.93) {
      items.push({ kind: 'error handler', act: rng.pick(['next', 'end', 'clear']) })
    } else {
      items.push({ kind: 'param', name: rng.pick(['x', 'p', 'y', 'z']), act: rng.pick(['next', 'next', 'route', 'error']) })
    }
  }
  return items
}

/** What a layer records about the request it sees. */
function record(req, tag, next) {
  const parsed = req._parsedUrl
  const params = req.params
  const app = req.app
  ;(req.records ??= []).push({
    tag,
    url: req.url,
    baseUrl: req.baseUrl,
    originalUrl: req.originalUrl,
    path: req.path,
    query: req.query,
    params: params ? { ...params } : params,
    keys: params ? Object.keys(params) : null,
    nullPrototype: params ? Object.getPrototypeOf(params) === null : null,
    route: req.route ? String(req.route.path) : null,
    parsed: parsed ? [parsed.pathname, parsed.search, parsed._raw] : null,
    // which app the request belongs to here, and whether it has that app's prototypes
    mountpath: app ? String(app.mountpath) : null,
    prototypes: app ? [Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(req.res) === app.response, req.res.app === app] : null,
    localsKeys: Object.keys(req.res.locals ?? {}),
    // own keys, in order (a prototype swap must not change them)
    reqKeys: Object.keys(req).join(),
    resKeys: Object.keys(req.res).join(),
    // router@2.3's request state: the last matched path, the errors reported
    routerState: Object.getOwnPropertySymbols(req).filter((s) => String(s).startsWith('Symbol(router.tracing')).map((s) => {
      const v = req[s]
      return String(s) + '=' + (v instanceof Set ? [...v].map((e) => String(e && e.message)).join('|') : String(v))
    }).join(),
    nextIsReqNext: next === undefined ? null : next === req.next
  })
}

/** What req holds once the response is done: what the routers put back (read by loggers and metrics on 'finish'). */
function finalState(req) {
  return JSON.stringify({
    url: req.url,
    baseUrl: req.baseUrl,
    ownBaseUrl: Object.prototype.hasOwnProperty.call(req, 'baseUrl'),
    originalUrl: req.originalUrl,
    params: req.params === undefined ? 'undefined' : req.params,
    next: typeof req.next,
    route: req.route ? String(req.route.path) : null,
    reqKeys: Object.keys(req).join()
  })
}

/**
 * Build the tree on `lib` (switchyard or express). With `finals` (a list),
 * the app records req's state when each response is done into it, and has
 * no 404 and error handlers of its own: requests nobody answers reach the
 * built-in final handler.
 */
export function build(lib, tree, finals) {
  let id = 0
  const fill = (target, items) => {
    for (const item of items) {
      const tag = item.kind + ' ' + id++
      if (item.kind === 'router' || item.kind === 'app') {
        const child = item.kind === 'router' ? lib.Router(item.options) : lib()
        if (item.kind === 'app') {
          child.set('env', 'production')
          if (item.options.caseSensitive) child.enable('case sensitive routing')
          if (item.options.strict) child.enable('strict routing')
        }
        fill(child, item.children)
        target.use(item.path, child)
      } else if (item.kind === 'use') {
        const fn = (req, res, next) => {
          record(req, tag, next)
          if (item.act === 'next') next()
          else if (item.act === 'router') next('router')
          else if (item.act === 'error') next(new Error(tag))
          else if (item.act === 'later') setImmediate(next)
          else if (item.act === 'reject') return Promise.reject(new Error(tag))
          // rewrites, then next(): the mount path put back in front, or a new prefix
          else if (item.act === 'unmount') { req.url = req.baseUrl + req.url; next() }
          else if (item.act === 'rewrite') { req.url = '/r' + req.url; next() }
          else throw new Error(tag)
        }
        if (item.path === undefined) target.use(fn)
        else target.use(item.path, fn)
      } else if (item.kind === 'route') {
        const handlers = item.acts.map((act, k) => (req, res, next) => {
          record(req, `${tag}.${k}`, next)
          if (act === 'next') next()
          else if (act === 'route') next('route')
          else if (act === 'async') return Promise.resolve().then(() => next())
          else res.json({ answeredBy: tag, records: req.records })
        })
        target[item.method](item.path, ...handlers)
      } else if (item.kind === 'error handler') {
        target.use((err, req, res, next) => {
          record(req, `${tag}: ${err.message}`, next)
          if (item.act === 'next') next(err)
          else if (item.act === 'clear') next()
          else res.status(500).json({ answeredBy: tag, records: req.records })
        })
      } else {
        target.param(item.name, (req, res, next, value, name) => {
          record(req, `${tag}: ${name}=${value}`, next)
          if (item.act === 'next') next()
          else if (item.act === 'route') next('route')
          else next(new Error(tag))
        })
      }
    }
  }
  const app = lib()
  app.set('env', 'production')
  if (finals !== undefined) {
    app.use((req, res, next) => {
      let done = false
      const note = () => { if (!done) { done = true; finals.push(finalState(req)) } }
      res.on('finish', note)
      res.on('close', note)
      next()
    })
  }
  fill(app, tree)
  if (finals !== undefined) return app
  app.use((req, res) => res.status(404).json({ fellThrough: true, records: req.records ?? [] }))
  app.use((err, req, res, next) => res.status(500).json({ error: err.message, status: err.status, records: req.records ?? [] }))
  return app
}

function send(port, method, path) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode, body }))
    })
    req.on('error', (err) => resolve({ status: 'error ' + err.code, body: '' }))
    req.end()
  })
}

/** What a subscriber to router@2.3's `express.router.request` can read at one event, as text. */
function describeEvent(event, ctx) {
  const label = (v) => (v instanceof Error ? 'Error(' + v.message + ')' : typeof v === 'object' && v !== null ? typeof v : String(v))
  return [
    event, Object.keys(ctx).join(' '), ctx.layer?.name, ctx.route instanceof RegExp || Array.isArray(ctx.route) ? String(ctx.route) : ctx.route,
    'param' in ctx ? ctx.param : '', 'error' in ctx ? label(ctx.error) : '', 'result' in ctx ? label(ctx.result) : '',
    'incomingError' in ctx ? label(ctx.incomingError) : ''
  ].join('|')
}

/**
 * Subscribe to `express.router.request`; the list it fills, and a function
 * that unsubscribes.
 */
function traceEvents() {
  const events = []
  const channel = dc.tracingChannel('express.router.request')
  const handlers = {}
  for (const name of ['start', 'end', 'asyncStart', 'asyncEnd', 'error']) handlers[name] = (ctx) => events.push(describeEvent(name, ctx))
  channel.subscribe(handlers)
  return { events, stop: () => channel.unsubscribe(handlers) }
}

/**
 * Generate `apps` app trees from `seed`, serve each from both libraries, send
 * every path with every method; returns the counts and the first differences.
 * With `traced`, a subscriber to router@2.3's `express.router.request`
 * collects the events of each request too (the two servers are then asked
 * one after the other), and they must be the same from both.
 */
export async function runRouterFuzz({ seed = 1, apps = 20, traced = false, switchyard = require('../../dist/index.cjs'), express = require('express') } = {}) {
  const rng = random(seed)
  const differences = []
  const statuses = {}
  const trace = traced ? traceEvents() : undefined
  // the final handler of a production app logs each error it answers
  const log = console.error
  console.error = () => {}
  let requests = 0
  let records = 0
  let events = 0
  let finals = 0
  // one server at a time while tracing (the channel is one for both); a turn
  // of the event loop after the answer for events that come after it
  // (`finals`: req's state when the response was done, for apps built with a list)
  const ask = async (server, method, path, finals) => {
    const before = finals?.length
    const out = {}
    if (trace === undefined) out.answer = await send(server.address().port, method, path)
    else {
      trace.events.length = 0
      out.answer = await send(server.address().port, method, path)
      await new Promise((resolve) => setImmediate(resolve))
      out.events = trace.events.splice(0)
    }
    if (finals !== undefined) {
      for (let i = 0; i < 50 && finals.length === before; i++) await new Promise((resolve) => setImmediate(resolve))
      out.final = finals.length === before ? 'not done' : finals[finals.length - 1]
    }
    return out
  }
  try {
    for (let a = 0; a < apps; a++) {
      const tree = generate(rng)
      // every other pair of apps answers nothing itself: the built-in final
      // handler does, and what req holds afterwards is compared
      const bare = ((a >> 1) & 1) === 1
      const ourFinals = bare ? [] : undefined
      const theirFinals = bare ? [] : undefined
      const ours = await listen(alternate(build(switchyard, tree, ourFinals), a))
      const theirs = await listen(alternate(build(express, tree, theirFinals), a))
      try {
        for (const path of PATHS) {
          for (const method of METHODS) {
            requests++
            const [x, y] = traced
              ? [await ask(ours, method, path, ourFinals), await ask(theirs, method, path, theirFinals)]
              : await Promise.all([ask(ours, method, path, ourFinals), ask(theirs, method, path, theirFinals)])
            if (x.final !== undefined) finals++
            statuses[x.answer.status] = (statuses[x.answer.status] ?? 0) + 1
            if (method !== 'HEAD' && x.answer.body.startsWith('{')) records += JSON.parse(x.answer.body).records?.length ?? 0
            events += x.events?.length ?? 0
            const same = x.answer.status === y.answer.status && x.answer.body === y.answer.body &&
              JSON.stringify(x.events) === JSON.stringify(y.events) && x.final === y.final
            if (!same && differences.length < 10) {
              differences.push({ app: a, tree, method, path, switchyard: x, express: y })
            }
          }
        }
      } finally {
        ours.close()
        theirs.close()
      }
    }
  } finally {
    trace?.stop()
    console.error = log
  }
  return { seed, apps, requests, records, events, finals, statuses, differences }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runRouterFuzz({ seed: cliNumber('seed', 1), apps: cliNumber('apps', 200), traced: cliNumber('traced', 0) === 1 })
  console.log(`router-state fuzz seed ${report.seed}: ${report.apps} apps, ${report.requests} requests, ${report.records} records, ${report.finals} final states, ${report.events} traced events`)
  console.log('statuses:', JSON.stringify(report.statuses))
  console.log('differences:', report.differences.length)
  for (const d of report.differences.slice(0, 3)) console.log(JSON.stringify(d, null, 1).slice(0, 3000))
  process.exitCode = report.differences.length === 0 ? 0 : 1
}

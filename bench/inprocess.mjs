// npm run bench:inprocess [-- filter] : machine instructions per request of
// the request path alone, called in-process, counted by callgrind so that
// the same build gives the same count every run.
//
// Why: `npm run bench:instructions` counts a real server under load; its
// count moves by about 1% between two runs of one build (how requests fall
// into reads, when the collector and the compiler run), so it cannot see a
// change of a few hundred instructions. Here little is left to chance: no
// sockets, no load generator, V8's hash and random seeds fixed,
// `--predictable`, and no collector work scheduled by the clock (incremental
// marking, the memory reducer). Two runs of one build agree within a few
// instructions (without the collector flags, 1.3% apart on the 100
// middlewares; valgrind must watch for code V8 rewrites, --smc-check).
// What it leaves out: the HTTP parser, the socket, and the writing of the
// answer (`res.end` is replaced by a counter, so `res.send` takes the path it
// takes for a wrapped `res.end`). Use it to compare two builds on the
// framework's own path (docs/benchmarks.md).
//
// How: for each scenario the request path runs ITER_LO and then ITER_HI
// times, each in a fresh process under callgrind (requests and responses
// built by constructors whose prototypes are the app's, as an adopted
// server builds them); the difference of the two counts over
// the difference of the runs is the cost of one request, warm-up and
// start-up cancelled out.
//
// Needs valgrind. About a minute per scenario and build.
//
// Environment:
//   INPROC_LIBS  comma-separated builds to compare (paths of dist/index.cjs;
//                default this checkout's dist/index.cjs)
//   ITER_LO, ITER_HI  the two run lengths (default 10000 and 30000)
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { adopted } from './floor.mjs'
import jsonPost from './scenarios/20-json-1kb.mjs'
import formPost from './scenarios/21-urlencoded.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)

/** Three nested mergeParams routers with params, `handler` at the end: /api/:version/users/:uid/posts/:pid */
function nestedRouters(fw, handler) {
  const app = fw()
  const api = fw.Router({ mergeParams: true })
  const users = fw.Router({ mergeParams: true })
  const posts = fw.Router({ mergeParams: true })
  posts.get('/:pid', handler)
  users.use('/:uid/posts', posts)
  api.use('/users', users)
  app.use('/api/:version', api)
  return [app, '/api/v1/users/42/posts/7']
}

/** A server scenario's POST (bench/scenarios): its path, and its method, headers and body with a Content-Length. */
function posted({ request }) {
  const body = Buffer.from(request.body)
  return [request.path, { method: request.method, headers: { ...request.headers, 'content-length': String(body.length) }, body }]
}

/**
 * Each scenario: build(fw) gives [app, path], and the prototypes to build
 * requests with (default the app's; null: Node's own classes). Handlers end
 * with res.end (see above), but for send, nestedsend and json.
 */
const scenarios = {
  bare: (fw) => {
    // the loop's own cost (building the request and response, GC): no framework
    const app = fw()
    return [(req, res) => { res.end('Hello World') }, '/', app]
  },
  hello: (fw) => {
    const app = fw()
    app.get('/', (req, res) => { res.end('Hello World') })
    return [app, '/']
  },
  send: (fw) => {
    const app = fw()
    app.get('/', (req, res) => { res.send('Hello World') })
    return [app, '/']
  },
  json: (fw) => {
    // the 2 KB answer of bench/scenarios/06-json-2kb.mjs
    const app = fw()
    const data = { users: Array.from({ length: 28 }, (_, i) => ({ id: 1000 + i, name: 'user-' + i, email: `user${i}@example.com`, active: i % 3 !== 0 })) }
    app.get('/', (req, res) => { res.json(data) })
    return [app, '/']
  },
  post: (fw) => {
    // POST 1 KB JSON through the json parser (bench/scenarios/20-json-1kb.mjs)
    const app = fw()
    app.use(fw.json())
    app.post('/items', (req, res) => { res.end(String(req.body.items.length)) })
    const [url, post] = posted(jsonPost)
    return [app, url, undefined, post]
  },
  form: (fw) => {
    // POST a small form through the urlencoded parser (bench/scenarios/21-urlencoded.mjs)
    const app = fw()
    app.use(fw.urlencoded())
    app.post('/login', (req, res) => { res.send(req.body.name) })
    const [url, post] = posted(formPost)
    return [app, url, undefined, post]
  },
  routes: (fw) => {
    // 1,000 static routes, the last one hit (bench/scenarios/02-routes-1000.mjs);
    // its count is not steady: runs of one build read up to ~20% apart (its
    // heap is large enough for a full collection to fall into one of the two
    // run lengths or not), so compare builds on it with care
    const app = fw()
    for (let i = 0; i < 1000; i++) app.get(`/route/${i}/item`, (req, res) => { res.end('route ' + i) })
    return [app, '/route/999/item']
  },
  param: (fw) => {
    const app = fw()
    app.get('/user/:id', (req, res) => { res.end(req.params.id) })
    return [app, '/user/42']
  },
  nested: (fw) => nestedRouters(fw, (req, res) => { res.end(`${req.params.version} ${req.params.uid} ${req.params.pid}`) }),
  // the same with res.send, as bench/scenarios/05-nested-routers.mjs answers
  nestedsend: (fw) => nestedRouters(fw, (req, res) => { res.send(`${req.params.version} ${req.params.uid} ${req.params.pid}`) }),
  mounts: (fw) => {
    const app = fw()
    const a = fw.Router()
    const b = fw.Router()
    const c = fw.Router()
    c.get('/d', (req, res) => { res.end('ok') })
    b.use('/c', c)
    a.use('/b', b)
    app.use('/a', a)
    return [app, '/a/b/c/d']
  },
  handlers: (fw) => {
    // a route with two handlers (a check, then the answer): a pass through the route's stack
    const app = fw()
    app.get('/', (req, res, next) => { next() }, (req, res) => { res.end('Hello World') })
    return [app, '/']
  },
  params3: (fw) => {
    const app = fw()
    app.get('/a/:x/b/:y/c/:z', (req, res) => { res.end(req.params.x + req.params.y + req.params.z) })
    return [app, '/a/1/b/2/c/3']
  },
  merged: (fw) => {
    // a mergeParams router on a path without parameters: it copies the
    // mount's empty params for its route
    const app = fw()
    const api = fw.Router({ mergeParams: true })
    api.get('/users', (req, res) => { res.end('ok') })
    app.use('/api', api)
    return [app, '/api/users']
  },
  wrapped: (fw) => {
    // requests built by Node's own classes, as behind a wrapper
    // ((req, res) => app(req, res)): app.handle swaps their prototypes
    const app = fw()
    app.get('/', (req, res) => { res.end('Hello World') })
    return [app, '/', null]
  },
  subapp: (fw) => {
    // a sub-app on /api: the request takes its prototypes on the way in
    const app = fw()
    const api = fw()
    api.get('/', (req, res) => { res.end('Hello World') })
    app.use('/api', api)
    return [app, '/api']
  },
  middleware: (fw) => {
    const app = fw()
    for (let i = 0; i < 100; i++) app.use((req, res, next) => { next() })
    app.get('/', (req, res) => { res.end('ok') })
    return [app, '/']
  }
}

/** The child: run one scenario ITER times. */
async function child() {
  const { Socket } = require('node:net')
  const http = require('node:http')
  const fw = require(process.env.INPROC_LIB)
  const [app, url, protos = app, post] = scenarios[process.env.INPROC_SCENARIO](fw)
  // sized as adoptServer's constructors are (src/application.ts): 32 fields
  // reserved in each request, 48 in each response
  // (no prototypes given: Node's own classes, as a server the app cannot adopt builds them)
  const { IncomingMessage, ServerResponse } = protos === null ? http : adopted(protos, { request: 32, response: 48 })
  let ended = 0
  function end() { ended++; return this }
  const iter = Number(process.env.INPROC_ITER)
  for (let i = 0; i < iter; i++) {
    const req = new IncomingMessage(new Socket())
    req.url = url
    if (post === undefined) {
      req.method = 'GET'
      req.headers = { host: 'localhost' }
    } else {
      // a body already received: pushed into the request before the app sees it
      req.method = post.method
      req.headers = { host: 'localhost', ...post.headers }
      req.push(post.body)
      // (as Node's parser marks a request read to its end: without it the
      // request counts as aborted when it is destroyed, its stand-in socket
      // is destroyed with it, and Node builds a premature-close error)
      req.complete = true
      req.push(null)
    }
    const res = new ServerResponse(req)
    res.end = end
    app(req, res)
    // let deferred steps (setImmediate) run, as the event loop would
    if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve))
  }
  await new Promise((resolve) => setImmediate(resolve))
  if (ended !== iter) throw new Error(`${ended} of ${iter} requests ended`)
}

function count(lib, scenario, iter) {
  const dir = mkdtempSync(path.join(tmpdir(), 'inproc-'))
  try {
    const out = path.join(dir, 'cg.out')
    execFileSync('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${out}`,
      process.execPath, '--single-threaded', '--predictable', '--hash-seed=7', '--random-seed=7', '--no-incremental-marking', '--no-memory-reducer', fileURLToPath(import.meta.url)],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, INPROC_CHILD: '1', INPROC_LIB: lib, INPROC_SCENARIO: scenario, INPROC_ITER: String(iter) } })
    return Number(/^(?:summary|totals):\s*(\d+)/m.exec(readFileSync(out, 'utf8'))[1])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main() {
  const libs = (process.env.INPROC_LIBS || path.join(here, '..', 'dist', 'index.cjs')).split(',').map((s) => path.resolve(s.trim()))
  const lo = Number(process.env.ITER_LO || 10000)
  const hi = Number(process.env.ITER_HI || 30000)
  const filter = process.argv[2]
  // a filter with commas lists scenarios by name; without, it matches parts of names
  const names = Object.keys(scenarios).filter((n) => !filter || (filter.includes(',') ? filter.split(',').includes(n) : n.includes(filter)))
  console.log(`| scenario | ${libs.map((l) => path.relative(process.cwd(), l) || l).join(' | ')} |`)
  console.log(`|---|${libs.map(() => '---:').join('|')}|`)
  for (const name of names) {
    const cells = libs.map((lib) => Math.round((count(lib, name, hi) - count(lib, name, lo)) / (hi - lo)))
    console.log(`| ${name} | ${cells.join(' | ')} |`)
  }
}

if (process.env.INPROC_CHILD) await child()
else await main()

// Route timings from Switchyard's tracing channels, with no change to the app:
// `node examples/observability` then `curl localhost:3000/api/v1/users/7`.
// Each handler call prints its kind, name, full route and duration; each
// request prints the route that answered it (OpenTelemetry's `http.route`).
const dc = require('node:diagnostics_channel')
const fw = require('../..') // in your own project: require('switchyardjs')

const started = new WeakMap()
dc.tracingChannel('switchyard.layer').subscribe({
  start(ctx) { started.set(ctx, process.hrtime.bigint()) },
  end(ctx) {
    // async handlers finish in asyncEnd; report those there
    if (ctx.result && typeof ctx.result.then === 'function') return
    report(ctx)
  },
  asyncStart() {},
  asyncEnd(ctx) { report(ctx) },
  error(ctx) { console.log(`  ! ${ctx.name} failed: ${ctx.error && ctx.error.message}`) }
})
dc.subscribe('switchyard.route', ({ req, fullRoute }) => {
  console.log(`${req.method} ${req.originalUrl} -> http.route ${fullRoute}`)
})

function report(ctx) {
  const micros = Number(process.hrtime.bigint() - started.get(ctx)) / 1000
  console.log(`  ${ctx.kind.padEnd(15)} ${ctx.name.padEnd(12)} ${ctx.fullRoute.padEnd(22)} ${micros.toFixed(0)} µs`)
}

const app = fw()
const api = fw.Router({ mergeParams: true })
api.get('/users/:id', async function showUser(req, res) {
  await new Promise((resolve) => setTimeout(resolve, 20)) // a slow lookup
  res.json({ id: req.params.id, version: req.params.v })
})
app.use(function requestId(req, res, next) { res.set('X-Request-Id', String(Date.now())); next() })
app.use('/api/:v', api)

const port = Number(process.env.PORT) || 3000
const server = app.listen(port, () => console.log(`listening on http://localhost:${port}/api/v1/users/7`))
module.exports = server

// Starts one scenario's server for one implementation on a loopback port and
// prints the port on stdout. Run by bench/run.mjs (and bench/memory.mjs) in a
// child process so that the server and the load generator do not share an
// event loop.
//
// Every implementation is served by the same kind of server: a plain
// http.createServer(handler) with the same keep-alive timeout. For fastify the
// handler is the instance's own request handler, `fastify.routing` (the
// function fastify itself installs on the node:http server it would create),
// taken after `await fastify.ready()` so that plugins are loaded.
import http from 'node:http'
import { createRequire } from 'node:module'
import v8 from 'node:v8'

const require = createRequire(import.meta.url)
const [, , file, impl] = process.argv
const scenario = (await import(file)).default
const libs = {
  switchyard: () => [require('../dist/index.cjs')],
  // BENCH_BASELINE: another switchyard build, run with the switchyard builders
  baseline: () => [require(process.env.BENCH_BASELINE)],
  express: () => [require('express')],
  fastify: () => [require('fastify'), { static: require('@fastify/static'), formbody: require('@fastify/formbody') }],
  node: () => [],
  // bare node:http giving express@5's exact answer with the least work (bench/floor.mjs)
  floor: async () => [await import('./floor.mjs')]
}
if (!libs[impl]) throw new Error(`unknown implementation ${impl}`)
const built = (scenario[impl] ?? (impl === 'baseline' ? scenario.switchyard : undefined))(...(await libs[impl]()))
let handler = built
if (impl === 'fastify') {
  await built.ready()
  handler = built.routing
}
// (a floor handler may ask for server options: the constructors of an adopted server)
const server = handler.serverOptions ? http.createServer(handler.serverOptions, handler) : http.createServer(handler)
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(String(server.address().port) + '\n')
})
// The parent asks over stdin, one line per question, and gets one line back:
//   "cpu" (or anything else): this process's CPU time, user + system, in µs;
//   "rss": the resident set size in bytes;
//   "heap": the V8 heap in use (heapUsed), in bytes;
//   "young": the size V8 has reserved for its young generation (new_space), in bytes;
//   "idle": six full garbage collections, 100 ms apart, with no request in
//          flight (when the process runs with --expose-gc, as bench/idle.mjs
//          starts it), then "ok": what an idle server may get;
//   "mem": process.memoryUsage() as JSON (after a full garbage collection
//          when the process runs with --expose-gc, as bench/memory.mjs starts it);
//   "gc-start" / "alloc-start", then "alloc-stop": count the garbage
//          collections in between, or sample what the process allocates (V8's
//          sampling heap profiler, through node:inspector); "alloc-stop"
//          answers with a summary as JSON (bench/alloc-probe.mjs; asked by
//          bench/alloc.mjs).
// (one question after another: an answer that waits, as alloc-stop does,
// is written before the next question is read)
let pending = ''
let answering = Promise.resolve()
process.stdin.on('data', (chunk) => {
  pending += chunk
  answering = answering.then(answerPending)
})
async function answerPending() {
  let nl
  while ((nl = pending.indexOf('\n')) !== -1) {
    const line = pending.slice(0, nl).trim()
    pending = pending.slice(nl + 1)
    if (line === 'rss') {
      process.stdout.write(String(process.memoryUsage.rss()) + '\n')
    } else if (line === 'idle') {
      for (let i = 0; i < 6; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        if (typeof globalThis.gc === 'function') globalThis.gc()
      }
      process.stdout.write('ok\n')
    } else if (line === 'mem') {
      if (typeof globalThis.gc === 'function') globalThis.gc()
      process.stdout.write(JSON.stringify(process.memoryUsage()) + '\n')
    } else if (line === 'young') {
      const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')
      process.stdout.write(String(young ? young.space_size : 0) + '\n')
    } else if (line === 'gc-start' || line === 'alloc-start' || line === 'alloc-stop') {
      const { allocation } = await import('./alloc-probe.mjs')
      process.stdout.write(JSON.stringify(await allocation(line === 'alloc-stop' ? 'stop' : line)) + '\n')
    } else if (line === 'heap') {
      process.stdout.write(String(process.memoryUsage().heapUsed) + '\n')
    } else {
      const { user, system } = process.cpuUsage()
      process.stdout.write(String(user + system) + '\n')
    }
  }
}

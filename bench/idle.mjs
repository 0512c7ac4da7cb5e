// npm run bench:idle : does a server keep its speed after an idle period?
// For each implementation, starts a scenario's server (as npm run bench does,
// pinned to one core when taskset exists, with --expose-gc), warms it up for
// 1 s, measures its CPU time per request over IDLE_SECONDS (default 2), then
// asks it for six full garbage collections with no request in flight (the
// "idle" question of bench/server.mjs: what a server that sits idle while
// something else allocates may get), and measures it IDLE_AFTER times more
// (default 3). Prints, per server, the CPU µs per request before and after.
//
// Why: V8 may free the maps of objects none of which is alive during a full
// collection; the stores that build such objects afterwards (Node's
// process.nextTick tick objects among them) can turn megamorphic for good, and
// the server then stays slower for the rest of its life. This tool shows
// whether a server comes back to its speed after such collections.
//
// Usage: npm run bench:idle [-- <scenario filter>] (default: hello world).
// Environment: IDLE_IMPLS (default switchyard,fastify,node; also express,
// baseline with BENCH_BASELINE, floor), IDLE_SERVERS (servers per
// implementation, default 2), IDLE_SECONDS, IDLE_AFTER, BENCH_CONNECTIONS,
// BENCH_PIN / BENCH_CPU as for npm run bench.
import { ask, startServer, scenarios, loadServer, measureLoad, runtime } from './run.mjs'

const filter = process.argv[2] || '01-hello'
const impls = (process.env.IDLE_IMPLS || 'switchyard,fastify,node').split(',').map((s) => s.trim())
const servers = Number(process.env.IDLE_SERVERS || 2)
const seconds = Number(process.env.IDLE_SECONDS || 2)
const after = Number(process.env.IDLE_AFTER || 3)

for (const { file, scenario } of await scenarios(filter)) {
  console.log(`${scenario.name}: CPU µs per request, before -> after six full collections while idle (${seconds}s loads; ${runtime})`)
  for (const impl of impls) {
    if (!scenario[impl] && !(impl === 'baseline' && scenario.switchyard)) continue
    const cells = []
    for (let s = 0; s < servers; s++) {
      const server = await startServer(file, impl, ['--expose-gc'])
      server.child.removeAllListeners('exit')
      try {
        await loadServer(server.port, scenario.request, { duration: 1 }, 'warm-up')
        const before = (await measureLoad(server, scenario.request, { duration: seconds })).cpu
        await ask(server.child, 'idle')
        const later = []
        for (let i = 0; i < after; i++) later.push((await measureLoad(server, scenario.request, { duration: seconds })).cpu)
        cells.push(`${before.toFixed(1)} -> ${later.map((c) => c.toFixed(1)).join(', ')}`)
      } finally {
        server.child.kill()
      }
    }
    console.log(`  ${impl.padEnd(10)} ${cells.join('   ')}`)
  }
}
process.exit(0)

// What the differential state fuzzers (router-state, response-state,
// request-state, body-state, static-state) share: a seeded generator, a
// loopback server, a raw exchange, the compare loop of the case fuzzers, and
// the command line.
import http from 'node:http'
import net from 'node:net'

/** A seeded generator (the same seed gives the same cases). */
export function random(seed) {
  let s = seed >>> 0 || 1
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    return (s >>> 1) / 0x80000000
  }
  return { next, pick: (list) => list[Math.floor(next() * list.length)] }
}

/** Serve `handler` (a function, or an http.Server already made) on a loopback port. */
export function listen(handler) {
  return new Promise((resolve) => {
    const server = typeof handler === 'function' ? http.createServer(handler) : handler
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}

/**
 * The handler to serve for case `i`: an app as it is for even cases, and
 * behind a wrapper function for odd ones. A wrapped app cannot adopt its
 * server, so each of its requests has its prototypes swapped
 *: both paths get compared with the oracle.
 * Anything that is not an app is served as it is.
 */
export function alternate(handler, i) {
  const app = typeof handler === 'function' && typeof handler.handle === 'function'
  return app && i % 2 === 1 ? (req, res) => handler(req, res) : handler
}

/** `--name N` from the command line, as a number, or `fallback`. */
export function cliNumber(name, fallback) {
  const i = process.argv.indexOf('--' + name)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}

/**
 * Send `bytes` on a new connection and collect the response until the server
 * closes it (requests say Connection: close); '' when nothing came back in
 * `timeout` ms. The socket is written, not ended: a half-closed request
 * makes Node drop a response sent after a body failed to decode.
 */
export function rawExchange(port, bytes, timeout = 5000) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes))
    const chunks = []
    const timer = setTimeout(() => socket.destroy(), timeout)
    socket.on('data', (d) => chunks.push(d))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString('latin1'))
    })
  })
}

/**
 * Generate `cases` cases from `seed`; serve each from `build(ours, c)` and
 * `build(oracle, c)`, ask both with `exchange(port, c)`, and compare the
 * answers. `classify(answer)` names what happened, for the counts that show
 * a run is not vacuous. Returns the counts and the first ten differences.
 */
export async function compareCases({ seed, cases, generate, build, ours, oracle, exchange, classify, show = (c) => c }) {
  const rng = random(seed)
  const differences = []
  const counts = {}
  for (let i = 0; i < cases; i++) {
    const c = generate(rng)
    const a = await listen(alternate(build(ours, c), i))
    const b = await listen(alternate(build(oracle, c), i))
    try {
      const [x, y] = await Promise.all([exchange(a.address().port, c), exchange(b.address().port, c)])
      const key = classify(x)
      counts[key] = (counts[key] ?? 0) + 1
      if (x !== y && differences.length < 10) differences.push({ case: i, c: show(c), switchyard: x, oracle: y })
    } finally {
      a.close()
      b.close()
    }
  }
  return { counts, differences }
}

/** The command line of a case fuzzer: run it with --seed and --cases, print the counts and the first differences, exit 1 on any. */
export async function caseFuzzerMain(label, run, countsName) {
  const report = await run({ seed: cliNumber('seed', 1), cases: cliNumber('cases', 2000) })
  console.log(`${label} seed ${report.seed}: ${report.cases} cases`)
  console.log(`${countsName}:`, JSON.stringify(report[countsName]), 'differences:', report.differences.length)
  for (const d of report.differences.slice(0, 4)) console.log(JSON.stringify(d).slice(0, 3000))
  process.exitCode = report.differences.length === 0 ? 0 : 1
}

// What the differential state fuzzers (router-state, response-state,
// request-state, body-state, static-state) share: a seeded generator, a
// loopback server, and the command line.
import http from 'node:http'

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

/** `--name N` from the command line, as a number, or `fallback`. */
export function cliNumber(name, fallback) {
  const i = process.argv.indexOf('--' + name)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}

// Starts one scenario's server for one implementation on a loopback port and
// prints the port on stdout. Run by bench/run.mjs in a child process so that
// the server and the load generator do not share an event loop.
import http from 'node:http'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const [, , file, impl] = process.argv
const scenario = (await import(file)).default
const libs = {
  switchyard: () => require('../dist/index.cjs'),
  express: () => require('express'),
  node: () => null
}
const handler = scenario[impl](libs[impl]())
const server = http.createServer(handler)
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(String(server.address().port) + '\n')
})
// the runner asks for this process's CPU time (user + system, microseconds) over stdin
process.stdin.on('data', () => {
  const { user, system } = process.cpuUsage()
  process.stdout.write(String(user + system) + '\n')
})

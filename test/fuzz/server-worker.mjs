// One fuzz target in a worker thread: builds the fuzz app with the named
// implementation, listens on loopback, posts its port, and reports any uncaught
// exception or unhandled rejection to the runner instead of dying.
import http from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'
import { buildApp, implementations } from './app.mjs'

const report = (err) => parentPort.postMessage({ type: 'uncaught', error: String((err && err.stack) || err) })
process.on('uncaughtException', report)
process.on('unhandledRejection', report)

const server = http.createServer(buildApp(implementations()[workerData.impl]))
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'ready', port: server.address().port }))
parentPort.on('message', (m) => {
  if (m === 'close') { server.closeAllConnections(); server.close(() => parentPort.postMessage({ type: 'closed' })) }
})

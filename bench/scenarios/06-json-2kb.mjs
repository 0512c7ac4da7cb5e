// GET returning a 2 KB JSON object: res.json / reply.send(object) / JSON.stringify.
// The object is built once; every server serialises it on every request.
const data = {
  users: Array.from({ length: 28 }, (_, i) => ({ id: 1000 + i, name: 'user-' + i, email: `user${i}@example.com`, active: i % 3 !== 0 }))
}
const size = Buffer.byteLength(JSON.stringify(data))
if (size < 1950 || size > 2150) throw new Error('the JSON answer should be about 2 KB, got ' + size)

export default {
  name: 'GET 2 KB JSON (res.json)',
  request: { path: '/users' },
  switchyard: (fw) => { const app = fw(); app.get('/users', (req, res) => { res.json(data) }); return app },
  express: (express) => { const app = express(); app.get('/users', (req, res) => { res.json(data) }); return app },
  // no response schema: fastify then serialises with JSON.stringify, as Express
  // does, and sends the same Content-Type (application/json; charset=utf-8)
  fastify: (Fastify) => { const app = Fastify(); app.get('/users', (req, reply) => { reply.send(data) }); return app },
  floor: (f) => (req, res) => { f.sendExact(req, res, f.JSON_TYPE, JSON.stringify(data)) },
  node: () => (req, res) => { res.setHeader('Content-Type', 'application/json; charset=utf-8'); res.end(JSON.stringify(data)) }
}

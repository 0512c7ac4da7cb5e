// hello world: one GET route
export default {
  name: 'hello world',
  request: { path: '/' },
  switchyard: (fw) => { const app = fw(); app.get('/', (req, res) => { res.send('Hello World') }); return app },
  express: (express) => { const app = express(); app.get('/', (req, res) => { res.send('Hello World') }); return app },
  fastify: (Fastify) => { const app = Fastify(); app.get('/', (req, reply) => { reply.type('text/html; charset=utf-8').send('Hello World') }); return app },
  floor: (f) => (req, res) => { f.sendExact(req, res, f.HTML, 'Hello World') },
  node: () => (req, res) => { res.setHeader('Content-Type', 'text/html; charset=utf-8'); res.end('Hello World') }
}

// one parameterised route: /user/:id
export default {
  name: '/user/:id param route',
  request: { path: '/user/12345' },
  switchyard: (fw) => { const app = fw(); app.get('/user/:id', (req, res) => { res.send('user ' + req.params.id) }); return app },
  express: (express) => { const app = express(); app.get('/user/:id', (req, res) => { res.send('user ' + req.params.id) }); return app },
  fastify: (Fastify) => { const app = Fastify(); app.get('/user/:id', (req, reply) => { reply.type('text/html; charset=utf-8').send('user ' + req.params.id) }); return app },
  floor: (f) => (req, res) => {
    const m = /^\/user\/([^/]+)\/?$/.exec(req.url)
    f.sendExact(req, res, f.HTML, 'user ' + decodeURIComponent(m[1]))
  },
  node: () => (req, res) => {
    const m = /^\/user\/([^/]+)\/?$/.exec(req.url)
    res.setHeader('Content-Type', 'text/html; charset=utf-8'); res.end('user ' + decodeURIComponent(m[1]))
  }
}

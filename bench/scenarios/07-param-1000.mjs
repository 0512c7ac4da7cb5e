// /user/:id registered after 999 other parameterised routes (/item0/:id ...
// /item998/:id): the routing table of a larger REST API, the last route hit.
const OTHERS = 999
export default {
  name: '/user/:id among 1,000 routes',
  request: { path: '/user/12345' },
  switchyard: (fw) => build(fw()),
  express: (express) => build(express()),
  fastify: (Fastify) => {
    const app = Fastify()
    for (let i = 0; i < OTHERS; i++) app.get(`/item${i}/:id`, (req, reply) => { reply.type('text/html; charset=utf-8').send('item ' + req.params.id) })
    app.get('/user/:id', (req, reply) => { reply.type('text/html; charset=utf-8').send('user ' + req.params.id) })
    return app
  },
  floor: (f) => (req, res) => {
    const m = /^\/user\/([^/]+)\/?$/.exec(req.url)
    f.sendExact(req, res, f.HTML, 'user ' + decodeURIComponent(m[1]))
  },
  node: () => (req, res) => {
    const m = /^\/user\/([^/]+)\/?$/.exec(req.url)
    res.setHeader('Content-Type', 'text/html; charset=utf-8'); res.end('user ' + decodeURIComponent(m[1]))
  }
}

function build(app) {
  for (let i = 0; i < OTHERS; i++) app.get(`/item${i}/:id`, (req, res) => { res.send('item ' + req.params.id) })
  app.get('/user/:id', (req, res) => { res.send('user ' + req.params.id) })
  return app
}
